// libheif (Debian libheif-dev, LGPL-3, linked dynamically): HEIC/HEIF photos (HEVC through libde265) and AVIF
// (through libaom).
#include <libheif/heif.h>
