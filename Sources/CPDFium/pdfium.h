// The few functions of PDFium's C API (public headers fpdfview.h, fpdf_text.h, fpdf_ppo.h and fpdf_save.h in PDFium's
// repository, BSD-3-Clause / Apache-2.0) that the pipeline calls to read PDFs, declared here because the library
// comes from a PyPI wheel without headers (scripts/install-pdfium, docs/inputs.md).
//
// The library is opened with dlopen at run time (pdfium_open below), not linked: the package builds and images are
// read on machines without PDFium, and a missing library becomes one clear error on the first PDF instead of a
// loader failure before main. PDFium is not thread-safe: callers hold one lock around every call.
#pragma once
#include <dlfcn.h>
#include <stddef.h>
#include <time.h>

typedef struct fpdf_document_t__ *FPDF_DOCUMENT;
typedef struct fpdf_page_t__ *FPDF_PAGE;
typedef struct fpdf_textpage_t__ *FPDF_TEXTPAGE;
typedef struct fpdf_bitmap_t__ *FPDF_BITMAP;

/// FPDF_GetLastError's codes (fpdfview.h).
enum {
    PDFIUM_ERR_SUCCESS = 0,
    PDFIUM_ERR_UNKNOWN = 1,
    PDFIUM_ERR_FILE = 2,
    PDFIUM_ERR_FORMAT = 3,
    PDFIUM_ERR_PASSWORD = 4,
    PDFIUM_ERR_SECURITY = 5,
    PDFIUM_ERR_PAGE = 6,
};

/// FPDF_RenderPageBitmap flags (fpdfview.h): annotations drawn, rendered for printing (no hover states).
enum { PDFIUM_RENDER_ANNOT = 0x01, PDFIUM_RENDER_PRINTING = 0x800 };

/// FPDF_SaveAsCopy's writer (fpdf_save.h): `write_block` returns nonzero on success.
typedef struct PDFiumFileWrite {
    int version;
    int (*write_block)(struct PDFiumFileWrite *self, const void *data, unsigned long size);
} PDFiumFileWrite;

/// FPDF_SaveAsCopy's writer with a pointer back to the Swift object collecting the bytes.
typedef struct PDFiumBufferWriter {
    PDFiumFileWrite base;
    void *owner;
} PDFiumBufferWriter;

/// FS_RECTF (fpdfview.h), in page points.
typedef struct PDFiumRect {
    float left, top, right, bottom;
} PDFiumRect;

/// IFSDK_PAUSE (fpdf_progressive.h): asked between page objects whether rendering should stop for now.
typedef struct PDFiumPause {
    int version;
    int (*need_to_pause_now)(struct PDFiumPause *self);
    void *user;
} PDFiumPause;

/// The functions used, as dlsym finds them.
typedef struct PDFiumAPI {
    void (*InitLibrary)(void);
    FPDF_DOCUMENT (*LoadMemDocument64)(const void *data, size_t size, const char *password);
    unsigned long (*GetLastError)(void);
    void (*CloseDocument)(FPDF_DOCUMENT document);
    int (*GetPageCount)(FPDF_DOCUMENT document);
    int (*GetPageSizeByIndex)(FPDF_DOCUMENT document, int index, double *width, double *height);
    FPDF_PAGE (*LoadPage)(FPDF_DOCUMENT document, int index);
    void (*ClosePage)(FPDF_PAGE page);
    int (*PageToDevice)(
        FPDF_PAGE page, int start_x, int start_y, int size_x, int size_y, int rotate, double page_x, double page_y,
        int *device_x, int *device_y);
    int (*RenderPageBitmapStart)(
        FPDF_BITMAP bitmap, FPDF_PAGE page, int start_x, int start_y, int size_x, int size_y, int rotate, int flags,
        PDFiumPause *pause);
    int (*RenderPageContinue)(FPDF_PAGE page, PDFiumPause *pause);
    void (*RenderPageClose)(FPDF_PAGE page);
    FPDF_BITMAP (*BitmapCreate)(int width, int height, int alpha);
    int (*BitmapFillRect)(FPDF_BITMAP bitmap, int left, int top, int width, int height, unsigned long color);
    void *(*BitmapGetBuffer)(FPDF_BITMAP bitmap);
    int (*BitmapGetStride)(FPDF_BITMAP bitmap);
    void (*BitmapDestroy)(FPDF_BITMAP bitmap);
    FPDF_TEXTPAGE (*TextLoadPage)(FPDF_PAGE page);
    void (*TextClosePage)(FPDF_TEXTPAGE text);
    int (*TextCountChars)(FPDF_TEXTPAGE text);
    unsigned int (*TextGetUnicode)(FPDF_TEXTPAGE text, int index);
    int (*TextGetLooseCharBox)(FPDF_TEXTPAGE text, int index, PDFiumRect *rect);
    FPDF_DOCUMENT (*CreateNewDocument)(void);
    int (*ImportPages)(FPDF_DOCUMENT destination, FPDF_DOCUMENT source, const char *range, int index);
    int (*SaveAsCopy)(FPDF_DOCUMENT document, PDFiumFileWrite *writer, unsigned long flags);
} PDFiumAPI;

/// Opens the library at `path` and fills `api`; returns 0, or 1 with a reason in `error` (dlopen's message or the
/// first missing function).
static inline int pdfium_open(const char *path, PDFiumAPI *api, const char **error) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        *error = dlerror();
        return 1;
    }
#define PDFIUM_FIND(field, name)                                 \
    *(void **)(&api->field) = dlsym(library, name);              \
    if (api->field == NULL) {                                    \
        *error = "the library lacks " name;                      \
        return 1;                                                \
    }
    PDFIUM_FIND(InitLibrary, "FPDF_InitLibrary");
    PDFIUM_FIND(LoadMemDocument64, "FPDF_LoadMemDocument64");
    PDFIUM_FIND(GetLastError, "FPDF_GetLastError");
    PDFIUM_FIND(CloseDocument, "FPDF_CloseDocument");
    PDFIUM_FIND(GetPageCount, "FPDF_GetPageCount");
    PDFIUM_FIND(GetPageSizeByIndex, "FPDF_GetPageSizeByIndex");
    PDFIUM_FIND(LoadPage, "FPDF_LoadPage");
    PDFIUM_FIND(ClosePage, "FPDF_ClosePage");
    PDFIUM_FIND(PageToDevice, "FPDF_PageToDevice");
    PDFIUM_FIND(RenderPageBitmapStart, "FPDF_RenderPageBitmap_Start");
    PDFIUM_FIND(RenderPageContinue, "FPDF_RenderPage_Continue");
    PDFIUM_FIND(RenderPageClose, "FPDF_RenderPage_Close");
    PDFIUM_FIND(BitmapCreate, "FPDFBitmap_Create");
    PDFIUM_FIND(BitmapFillRect, "FPDFBitmap_FillRect");
    PDFIUM_FIND(BitmapGetBuffer, "FPDFBitmap_GetBuffer");
    PDFIUM_FIND(BitmapGetStride, "FPDFBitmap_GetStride");
    PDFIUM_FIND(BitmapDestroy, "FPDFBitmap_Destroy");
    PDFIUM_FIND(TextLoadPage, "FPDFText_LoadPage");
    PDFIUM_FIND(TextClosePage, "FPDFText_ClosePage");
    PDFIUM_FIND(TextCountChars, "FPDFText_CountChars");
    PDFIUM_FIND(TextGetUnicode, "FPDFText_GetUnicode");
    PDFIUM_FIND(TextGetLooseCharBox, "FPDFText_GetLooseCharBox");
    PDFIUM_FIND(CreateNewDocument, "FPDF_CreateNewDocument");
    PDFIUM_FIND(ImportPages, "FPDF_ImportPages");
    PDFIUM_FIND(SaveAsCopy, "FPDF_SaveAsCopy");
#undef PDFIUM_FIND
    api->InitLibrary();
    return 0;
}

static inline double pdfium_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static inline int pdfium_past_deadline(PDFiumPause *pause) { return pdfium_now() >= *(double *)pause->user; }

/// Renders `page` into `bitmap` (annotations drawn, as for printing), giving up once `seconds` have passed: PDFium
/// asks between page objects whether to pause, and a pause past the deadline ends the rendering.
/// Returns 0 when done, 1 when the deadline passed, 2 when PDFium failed.
static inline int pdfium_render_within(
    const PDFiumAPI *api, FPDF_BITMAP bitmap, FPDF_PAGE page, int width, int height, double seconds) {
    double deadline = pdfium_now() + seconds;
    PDFiumPause pause = {1, pdfium_past_deadline, &deadline};
    int status = api->RenderPageBitmapStart(
        bitmap, page, 0, 0, width, height, 0, PDFIUM_RENDER_ANNOT | PDFIUM_RENDER_PRINTING, &pause);
    while (status == 1) {  // FPDF_RENDER_TOBECONTINUED
        if (pdfium_now() >= deadline) {
            api->RenderPageClose(page);
            return 1;
        }
        status = api->RenderPageContinue(page, &pause);
    }
    api->RenderPageClose(page);
    return status == 2 ? 0 : 2;  // FPDF_RENDER_DONE
}
