// Leptonica first, then Tesseract: one module, so `Pix` is one Swift type (NOTES.md).
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

/// Decodes a JPEG straight to an 8-bit gray Pix, reduced 1/2/4/8× inside the decoder, without printing.
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
    info.out_color_space = JCS_GRAYSCALE;
    info.scale_num = 1;
    info.scale_denom = (unsigned int)reduction;
    jpeg_start_decompress(&info);
    pix = pixCreate((l_int32)info.output_width, (l_int32)info.output_height, 8);
    row = (JSAMPLE *)malloc(info.output_width);
    if (pix == NULL || row == NULL) longjmp(error.escape, 1);
    l_uint32 *lines = pixGetData(pix);
    l_int32 words = pixGetWpl(pix);
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {row};
        l_uint32 *line = lines + (size_t)info.output_scanline * (size_t)words;
        jpeg_read_scanlines(&info, rows, 1);
        for (JDIMENSION x = 0; x < info.output_width; x++) SET_DATA_BYTE(line, x, row[x]);
    }
    if (error.manager.num_warnings > 0) longjmp(error.escape, 1);
    jpeg_finish_decompress(&info);
    if (error.manager.num_warnings > 0) longjmp(error.escape, 1);
    jpeg_destroy_decompress(&info);
    free(row);
    return pix;
}
