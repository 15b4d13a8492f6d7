// Leptonica first, then Tesseract: one module, so `Pix` is one Swift type (NOTES.md).
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
