#!/usr/bin/env python3
"""Makes the four-channel JPEG fixtures of CMYKTests from the top of a shipped receipt (issue 14 item 6).

Needs Pillow (pip install pillow==13.0.0) and, for the YCCK file, a C compiler with libjpeg-dev: Pillow cannot
write YCCK, so a few lines of C re-encode the CMYK file with libjpeg. Run from this folder:
    python3 make-images.py
"""
import os, subprocess, tempfile
from PIL import Image, ImageChops

receipt = Image.open("../../TestSupport/Receipts/sroie_006.jpg").convert("RGB")
top = receipt.crop((0, 80, 457, 330))  # merchant name and address
top.save("rgb.jpg", quality=75)
cmyk = top.convert("CMYK")
cmyk.save("cmyk-adobe.jpg", quality=75)  # what Pillow writes: Adobe marker, inverted (0 = full ink)

# Plain CMYK as other programs write it: no Adobe marker, 255 = full ink.
ImageChops.invert(cmyk).save("plain.tmp", "JPEG", quality=75)
data, out, at = open("plain.tmp", "rb").read(), bytearray(), 2
out += data[:2]
while data[at + 1] != 0xDA:  # copy every segment before the scan except APP14 "Adobe"
    length = int.from_bytes(data[at + 2:at + 4], "big")
    segment = data[at:at + 2 + length]
    if not (data[at + 1] == 0xEE and segment[4:9] == b"Adobe"):
        out += segment
    at += 2 + length
out += data[at:]
open("cmyk-plain.jpg", "wb").write(bytes(out))
os.remove("plain.tmp")

YCCK = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
int main(int argc, char **argv) {
  struct jpeg_decompress_struct in; struct jpeg_compress_struct out; struct jpeg_error_mgr e1, e2;
  FILE *fi = fopen(argv[1], "rb"), *fo = fopen(argv[2], "wb");
  in.err = jpeg_std_error(&e1); jpeg_create_decompress(&in); jpeg_stdio_src(&in, fi); jpeg_read_header(&in, TRUE);
  in.out_color_space = JCS_CMYK; jpeg_start_decompress(&in);
  out.err = jpeg_std_error(&e2); jpeg_create_compress(&out); jpeg_stdio_dest(&out, fo);
  out.image_width = in.output_width; out.image_height = in.output_height; out.input_components = 4;
  out.in_color_space = JCS_CMYK; jpeg_set_defaults(&out); jpeg_set_colorspace(&out, JCS_YCCK);
  jpeg_set_quality(&out, 75, TRUE); jpeg_start_compress(&out, TRUE);
  JSAMPLE *row = malloc(in.output_width * 4);
  while (in.output_scanline < in.output_height) { jpeg_read_scanlines(&in, &row, 1); jpeg_write_scanlines(&out, &row, 1); }
  jpeg_finish_compress(&out); jpeg_finish_decompress(&in); fclose(fo); return 0;
}
"""
with tempfile.TemporaryDirectory() as folder:
    source, program = os.path.join(folder, "ycck.c"), os.path.join(folder, "ycck")
    open(source, "w").write(YCCK)
    subprocess.run(["cc", source, "-o", program, "-ljpeg"], check=True)
    subprocess.run([program, "cmyk-adobe.jpg", "ycck.jpg"], check=True)  # Adobe marker, transform 2
