"""Places labeled receipts into SYNTHETIC phone photos: the receipt on a table, filling part of a full-size frame.

A phone photo of a receipt lying on a table is 3024 x 4032 pixels (12 MP), and the receipt often fills a third to
a half of its width. Train and dev have no such photos (their phone photos are cropped to the receipt), so this
makes them from fixtures that are labeled: each receipt image is scaled to a share of the frame's width, turned a
few degrees, laid on a table texture (wood, stone, cloth or a desk, with grain and noise), lit unevenly (a soft
shadow across the frame), and saved as a JPEG the size of a phone's. The label is copied beside it, unchanged but
for `source.notes` saying how the photo was made. The text on the receipt is the fixture's own: what is measured is
how the pipeline finds and reads a receipt that does not fill the frame. See docs/ocr-engines.md.

Usage: python3 scripts/synth_receipts/photograph.py --fixtures DIR --out DIR [--count 40] [--seed 7]
       [--share 0.3,0.55] [--frame 3024x4032]
Needs Pillow and numpy (scripts/synth_receipts/requirements.txt).
"""
import argparse
import json
import os
import random

import numpy as np
from PIL import Image, ImageFilter

TABLES = {
    # name: (base RGB, grain direction: "rows" | "none", grain strength)
    "dark wood": ((92, 60, 38), "rows", 26),
    "light wood": ((178, 140, 98), "rows", 20),
    "grey stone": ((120, 122, 124), "none", 22),
    "blue cloth": ((54, 78, 120), "none", 14),
    "black desk": ((28, 28, 30), "none", 8),
    "beige desk": ((200, 190, 170), "none", 10),
}


def fixtures(root):
    """Every (image, label) pair under `root`, sorted by path."""
    pairs = []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            stem, extension = os.path.splitext(name)
            if extension.lower() in (".jpg", ".jpeg", ".png") and os.path.exists(os.path.join(directory, stem + ".json")):
                pairs.append((os.path.join(directory, name), os.path.join(directory, stem + ".json")))
    return sorted(pairs)


def table(width, height, rng, kind):
    """A table texture: a base color with grain along rows (wood) or blotchy noise (stone, cloth, desk)."""
    base, grain, strength = TABLES[kind]
    nprng = np.random.default_rng(rng.randrange(1 << 30))
    small = (height // 8, width // 8)
    if grain == "rows":
        rows = nprng.normal(0, 1, (small[0], 1)).repeat(small[1], axis=1)
        noise = rows + 0.35 * nprng.normal(0, 1, small)
    else:
        noise = nprng.normal(0, 1, small)
    field = Image.fromarray(np.uint8(np.clip(128 + 40 * noise, 0, 255))).resize((width, height), Image.BILINEAR)
    field = field.filter(ImageFilter.GaussianBlur(3))
    texture = (np.asarray(field, dtype=np.float32) - 128) / 40 * strength
    fine = nprng.normal(0, 4, (height, width)).astype(np.float32)
    pixels = np.stack([np.full((height, width), c, dtype=np.float32) for c in base], axis=2)
    pixels += (texture + fine)[:, :, None]
    return pixels


def photograph(receipt, frame, share, angle, kind, rng):
    """The receipt scaled to `share` of the frame's width, turned `angle` degrees, on a `kind` table, lit unevenly."""
    width, height = frame
    receipt = receipt.convert("RGB")
    scale = share * width / receipt.width
    # A receipt taller than the frame is scaled down to fit in it.
    scale = min(scale, 0.92 * height / receipt.height)
    size = (max(1, round(receipt.width * scale)), max(1, round(receipt.height * scale)))
    paper = receipt.resize(size, Image.LANCZOS)
    mask = Image.new("L", size, 255)
    paper = paper.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = mask.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=0)
    pixels = table(width, height, rng, kind)
    left = rng.randint(0, max(0, width - paper.width))
    top = rng.randint(0, max(0, height - paper.height))
    canvas = Image.fromarray(np.uint8(np.clip(pixels, 0, 255)))
    # A soft shadow under the paper, then the paper.
    shadow = Image.new("L", (width, height), 0)
    shadow.paste(mask, (left + 12, top + 16))
    shadow = shadow.filter(ImageFilter.GaussianBlur(18))
    shaded = np.asarray(canvas, dtype=np.float32) * (1 - 0.35 * np.asarray(shadow, dtype=np.float32)[:, :, None] / 255)
    canvas = Image.fromarray(np.uint8(np.clip(shaded, 0, 255)))
    canvas.paste(paper, (left, top), mask)
    # Uneven light: brighter on one side, darker on the other.
    light = np.linspace(1.08, 0.82, width if rng.random() < 0.5 else height, dtype=np.float32)
    light = light[None, :, None] if light.shape[0] == width else light[:, None, None]
    lit = np.asarray(canvas, dtype=np.float32) * light
    lit += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, lit.shape).astype(np.float32)
    return Image.fromarray(np.uint8(np.clip(lit, 0, 255))), (left, top, paper.width, paper.height)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--share", default="0.3,0.55", help="the receipt's share of the frame's width: low,high")
    parser.add_argument("--frame", default="3024x4032")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    low, high = (float(value) for value in arguments.share.split(","))
    frame = tuple(int(value) for value in arguments.frame.split("x"))
    pairs = fixtures(arguments.fixtures)
    chosen = sorted(rng.sample(pairs, min(arguments.count, len(pairs))))
    os.makedirs(arguments.out, exist_ok=True)
    for image_path, label_path in chosen:
        share = rng.uniform(low, high)
        angle = rng.uniform(-6, 6)
        kind = rng.choice(sorted(TABLES))
        with Image.open(image_path) as receipt:
            photo, placed = photograph(receipt, frame, share, angle, kind, rng)
        stem = os.path.splitext(os.path.basename(image_path))[0]
        name = f"photo_{os.path.basename(os.path.dirname(image_path))}_{stem}"
        photo.save(os.path.join(arguments.out, name + ".jpg"), quality=88)
        with open(label_path, encoding="utf-8") as handle:
            label = json.load(handle)
        label.setdefault("source", {}).setdefault("notes", []).append(
            f"SYNTHETIC photo ({os.path.basename(__file__)}, seed {arguments.seed}): {os.path.relpath(image_path, arguments.fixtures)} "
            f"at {share:.2f} of a {frame[0]}x{frame[1]} frame's width, turned {angle:.1f} degrees, on {kind}, "
            f"placed at {placed}")
        with open(os.path.join(arguments.out, name + ".json"), "w", encoding="utf-8") as handle:
            json.dump(label, handle, indent=2, ensure_ascii=False)
            handle.write("\n")


if __name__ == "__main__":
    main()
