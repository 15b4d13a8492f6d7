#!/usr/bin/env python3
"""CPU seconds per receipt and peak RSS of the rapidocr package on a folder of images (same settings as the
Swift engine: detector long side capped at 960, angle classifier off, one intra-op thread).

Usage (in a throwaway venv; docs/ocr-engines.md):
  python3 -m venv /tmp/rapidocr-venv && /tmp/rapidocr-venv/bin/pip install rapidocr==3.10.0 onnxruntime==1.32.0
  /tmp/rapidocr-venv/bin/python scripts/rapidocr-cpu.py FOLDER [TEXTS.json]
"""
import glob, json, os, resource, sys, time
from rapidocr import RapidOCR

folder, out = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
engine = RapidOCR(params={
    "Det.limit_side_len": 960, "Det.limit_type": "max", "Global.use_cls": False,
    "EngineConfig.onnxruntime.intra_op_num_threads": 1, "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    "Global.log_level": "error",
})
images = sorted(glob.glob(os.path.join(folder, "**/*.jp*g"), recursive=True))
engine(images[0])  # warm up
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
start_cpu, start_wall = cpu(), time.time()
texts = {}
for path in images:
    result = engine(path)
    texts[os.path.relpath(path, folder)] = "\n".join(result.txts or [])
cpu_used, wall = cpu() - start_cpu, time.time() - start_wall
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"rapidocr: {len(images)} images, CPU {cpu_used:.1f} s = {cpu_used / len(images):.3f} s/receipt, "
      f"wall {wall:.1f} s, peak RSS {peak:.0f} MB")
if out:
    json.dump(texts, open(out, "w"), indent=1)
