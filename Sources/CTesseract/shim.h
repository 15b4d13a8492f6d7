// Leptonica first, then Tesseract: one module, so `Pix` is one Swift type (docs/behaviour.md).
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

// libjpeg, driven directly with an error manager that never writes to stderr: libjpeg's default handler prints
// "Corrupt JPEG data: …" warnings to the operator's terminal even when Leptonica's messages are silenced.
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

struct pipeline_quiet_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

static inline void pipeline_quiet_jpeg_exit(j_common_ptr info) {
    longjmp(((struct pipeline_quiet_jpeg_error *)info->err)->escape, 1);
}

static inline void pipeline_quiet_jpeg_message(j_common_ptr info) { (void)info; }

/// Reads a JPEG's dimensions from its header without decoding and without printing. Returns 0 on success.
static inline int pipeline_jpeg_dimensions(const unsigned char *data, size_t size, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct pipeline_quiet_jpeg_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = pipeline_quiet_jpeg_exit;
    error.manager.output_message = pipeline_quiet_jpeg_message;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

/// The gray level of one CMYK pixel. `inverted`: stored as Adobe (Photoshop) writes it, 0 meaning full ink.
static inline JSAMPLE pipeline_cmyk_gray(const JSAMPLE *pixel, int inverted) {
    unsigned int c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
    if (!inverted) {
        c = 255 - c;
        m = 255 - m;
        y = 255 - y;
        k = 255 - k;
    }
    unsigned int r = c * k / 255, g = m * k / 255, b = y * k / 255;
    return (JSAMPLE)((r * 77 + g * 150 + b * 29 + 128) >> 8);
}

/// Decodes a JPEG straight to an 8-bit gray Pix, reduced 1/2/4/8× inside the decoder, without printing.
/// CMYK and YCCK files (which libjpeg cannot turn into gray itself) are read as CMYK and mixed to gray here,
/// inverted when an Adobe marker says so (YCCK always has one).
/// Returns NULL for damaged data: any libjpeg warning (corrupt or truncated data) counts as failure.
static inline PIX *pipeline_jpeg_decode_gray(const unsigned char *data, size_t size, int reduction) {
    struct jpeg_decompress_struct info;
    struct pipeline_quiet_jpeg_error error;
    PIX *volatile pix = NULL;
    JSAMPLE *volatile row = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = pipeline_quiet_jpeg_exit;
    error.manager.output_message = pipeline_quiet_jpeg_message;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        free(row);
        pixDestroy((PIX **)&pix);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    int ink = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    int inverted = ink && info.saw_Adobe_marker;
    info.out_color_space = ink ? JCS_CMYK : JCS_GRAYSCALE;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)reduction;
    jpeg_start_decompress(&info);
    pix = pixCreate((l_int32)info.output_width, (l_int32)info.output_height, 8);
    row = (JSAMPLE *)malloc((size_t)info.output_width * (ink ? 4 : 1));
    if (pix == NULL || row == NULL) longjmp(error.escape, 1);
    l_uint32 *lines = pixGetData(pix);
    l_int32 words = pixGetWpl(pix);
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {row};
        l_uint32 *line = lines + (size_t)info.output_scanline * (size_t)words;
        jpeg_read_scanlines(&info, rows, 1);
        for (JDIMENSION x = 0; x < info.output_width; x++) {
            SET_DATA_BYTE(line, x, ink ? pipeline_cmyk_gray(row + 4 * (size_t)x, inverted) : row[x]);
        }
    }
    if (error.manager.num_warnings > 0) longjmp(error.escape, 1);
    jpeg_finish_decompress(&info);
    if (error.manager.num_warnings > 0) longjmp(error.escape, 1);
    jpeg_destroy_decompress(&info);
    free(row);
    return pix;
}

// libpng, driven directly for the same reason: its default handlers print "libpng warning: …" to stderr.
#include <png.h>
#include <stdlib.h>
#include <string.h>

struct pipeline_png_source {
    const unsigned char *data;
    size_t size;
    size_t offset;
};

static inline void pipeline_png_quiet_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static inline void pipeline_png_quiet_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static inline void pipeline_png_read(png_structp png, png_bytep output, png_size_t count) {
    struct pipeline_png_source *source = (struct pipeline_png_source *)png_get_io_ptr(png);
    if (count > source->size - source->offset) png_error(png, "truncated");
    memcpy(output, source->data + source->offset, count);
    source->offset += count;
}

/// Decodes a PNG of any type to an 8-bit gray Pix (palette expanded, transparency composed on white), without
/// printing. Returns NULL for damaged data. Call only after the header's dimensions passed the pixel budget.
static inline PIX *pipeline_png_decode_gray(const unsigned char *data, size_t size) {
    png_structp png = png_create_read_struct(
        PNG_LIBPNG_VER_STRING, NULL, pipeline_png_quiet_error, pipeline_png_quiet_warning);
    if (png == NULL) return NULL;
    png_infop info = png_create_info_struct(png);
    PIX *volatile pix = NULL;
    png_bytep volatile pixels = NULL;
    png_bytepp volatile rows = NULL;
    struct pipeline_png_source source = {data, size, 0};
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info == NULL ? NULL : &info, NULL);
        free(rows);
        free(pixels);
        pixDestroy((PIX **)&pix);
        return NULL;
    }
    png_set_read_fn(png, &source, pipeline_png_read);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int type = png_get_color_type(png, info);
    png_set_strip_16(png);
    png_set_packing(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if ((type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_color_16 white = {0, 255, 255, 255, 255};
        png_set_background(png, &white, PNG_BACKGROUND_GAMMA_SCREEN, 0, 1.0);
    }
    if (type & PNG_COLOR_MASK_COLOR || type == PNG_COLOR_TYPE_PALETTE) png_set_rgb_to_gray_fixed(png, 1, -1, -1);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != width) png_error(png, "unexpected row layout");
    pix = pixCreate((l_int32)width, (l_int32)height, 8);
    pixels = (png_bytep)malloc((size_t)width * height);
    rows = (png_bytepp)malloc(sizeof(png_bytep) * height);
    if (pix == NULL || pixels == NULL || rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    l_uint32 *lines = pixGetData(pix);
    l_int32 words = pixGetWpl(pix);
    for (png_uint_32 y = 0; y < height; y++) {
        l_uint32 *line = lines + (size_t)y * (size_t)words;
        for (png_uint_32 x = 0; x < width; x++) SET_DATA_BYTE(line, x, rows[y][x]);
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(pixels);
    return pix;
}

/// Copies interleaved 8-bit pixels (`channels` bytes per pixel, red, green and blue at the given byte offsets; rows
/// `stride` bytes apart) into a new 32-bit RGB Pix: the bridge from decoders that write their own buffers (PDFium's
/// BGRx bitmaps, libheif's RGB planes). Returns NULL when the Pix cannot be made.
static inline PIX *pipeline_pix_from_interleaved(
    const unsigned char *data, int width, int height, int stride, int channels, int red, int green, int blue) {
    PIX *pix = pixCreate(width, height, 32);
    if (pix == NULL) return NULL;
    l_uint32 *lines = pixGetData(pix);
    l_int32 words = pixGetWpl(pix);
    for (int y = 0; y < height; y++) {
        const unsigned char *row = data + (size_t)y * (size_t)stride;
        l_uint32 *line = lines + (size_t)y * (size_t)words;
        for (int x = 0; x < width; x++) {
            const unsigned char *pixel = row + (size_t)x * (size_t)channels;
            line[x] = ((l_uint32)pixel[red] << L_RED_SHIFT) | ((l_uint32)pixel[green] << L_GREEN_SHIFT)
                | ((l_uint32)pixel[blue] << L_BLUE_SHIFT);
        }
    }
    return pix;
}
