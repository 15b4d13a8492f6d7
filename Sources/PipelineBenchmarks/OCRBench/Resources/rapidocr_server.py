"""The rapidocr Python package as a contender of `pipeline-bench ocr-bench --rapidocr`.

Same settings as the Swift PP-OCR engine: PP-OCRv6-small, detector long side capped at 960, angle classifier off,
one intra-op thread. Started by ocr-bench inside a throwaway venv; reads one image path per line on stdin and
answers one JSON line each: {"text": ..., "cpu": seconds} or {"error": ...}. The first argument is an image read
once before answering "ready", so session start-up is not counted. At the end of input it answers
{"peak_rss_mb": ...} and exits.
"""
import json, resource, sys
from rapidocr import RapidOCR


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def answer(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


engine = RapidOCR(params={
    "Det.limit_side_len": 960, "Det.limit_type": "max", "Global.use_cls": False,
    "EngineConfig.onnxruntime.intra_op_num_threads": 1, "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    "Global.log_level": "error",
})
engine(sys.argv[1])
answer({"ready": True})
for line in sys.stdin:
    path = line.rstrip("\n")
    start = cpu_seconds()
    try:
        result = engine(path)
        answer({"text": "\n".join(result.txts or []), "cpu": cpu_seconds() - start})
    except Exception as error:  # one unreadable image must not end the run
        answer({"error": f"{path}: {error}"})
answer({"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
