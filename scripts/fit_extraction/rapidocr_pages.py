"""Fills an OCR page cache (`pipeline bench --ocr-cache` layout, OCRPage JSON) with PP-OCR text from the `rapidocr`
Python package, for fitting on PP-OCR-quality text before the Swift PP-OCR engine's own pages exist.

Usage: rapidocr_pages.py FIXTURES CACHE   (run it in a venv with rapidocr==3.10.0 and onnxruntime==1.32.0)

Settings as measured in issue 18: PP-OCRv6-small, detector long side capped at 960 px, angle classifier off, one
intra-op thread. Detected boxes on one row (vertical overlap) are joined into one line, left to right; word boxes
are split from the line box in proportion to their characters, and every word gets its box's score.
"""
import json
import os
import sys

from rapidocr import RapidOCR


def rows(boxes):
    """Groups boxes (left, top, right, bottom, text, score) into rows by vertical overlap, top to bottom."""
    result = []
    for box in sorted(boxes, key=lambda b: (b[1] + b[3]) / 2):
        centre = (box[1] + box[3]) / 2
        for row in result:
            top = sum(b[1] for b in row) / len(row)
            bottom = sum(b[3] for b in row) / len(row)
            if top <= centre <= bottom:
                row.append(box)
                break
        else:
            result.append([box])
    return [sorted(row, key=lambda b: b[0]) for row in result]


def words_of(box):
    left, top, right, bottom, text, score = box
    parts = text.split()
    total = max(1, sum(len(p) for p in parts) + len(parts) - 1)
    words, cursor = [], 0
    for part in parts:
        start = left + (right - left) * cursor / total
        end = left + (right - left) * (cursor + len(part)) / total
        words.append({"text": part, "confidence": round(score * 100, 2),
                      "box": {"left": int(start), "top": int(top), "width": max(1, int(end - start)),
                              "height": int(bottom - top)}})
        cursor += len(part) + 1
    return words


def page(engine, path):
    import cv2
    image = cv2.imread(path)
    height, width = image.shape[:2]
    output = engine(path)
    boxes = []
    if output.boxes is not None:
        for quad, text, score in zip(output.boxes, output.txts, output.scores):
            xs = [p[0] for p in quad]
            ys = [p[1] for p in quad]
            if text.strip():
                boxes.append((min(xs), min(ys), max(xs), max(ys), text.strip(), float(score)))
    lines, confidences = [], []
    for row in rows(boxes):
        words = [w for box in row for w in words_of(box)]
        if not words:
            continue
        left = min(w["box"]["left"] for w in words)
        top = min(w["box"]["top"] for w in words)
        right = max(w["box"]["left"] + w["box"]["width"] for w in words)
        bottom = max(w["box"]["top"] + w["box"]["height"] for w in words)
        lines.append({"words": words, "box": {"left": left, "top": top, "width": right - left, "height": bottom - top}})
        confidences += [w["confidence"] for w in words]
    mean = sum(confidences) / len(confidences) if confidences else 0
    return {"lines": lines, "headerLines": [], "width": width, "height": height, "meanConfidence": mean}


def main():
    fixtures, cache = sys.argv[1], sys.argv[2]
    engine = RapidOCR(params={
        "Global.use_cls": False, "Global.log_level": "error",
        "Det.limit_type": "max", "Det.limit_side_len": 960,
        "EngineConfig.onnxruntime.intra_op_num_threads": 1, "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    })
    images = []
    for root, _, files in os.walk(fixtures):
        for name in files:
            if name.lower().endswith((".jpg", ".jpeg", ".png")):
                images.append(os.path.join(root, name))
    done = 0
    for path in sorted(images):
        relative = os.path.relpath(path, fixtures)
        target = os.path.join(cache, relative + ".json")
        if os.path.exists(target):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        result = page(engine, path)
        with open(target + ".tmp", "w") as handle:
            json.dump(result, handle, sort_keys=True)
        os.replace(target + ".tmp", target)
        done += 1
        if done % 50 == 0:
            print(f"{done} pages", flush=True)
    print(f"done: {done} new pages under {cache}", flush=True)


if __name__ == "__main__":
    main()
