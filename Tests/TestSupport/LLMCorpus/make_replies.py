"""Writes the recorded-reply corpus: provider bodies (OpenAI chat completions, Anthropic messages) for the ten
shipped receipts, in six variants each. Run from this folder: `python3 make_replies.py`. See README.md.

`python3 make_replies.py LABELS OUT` writes the same for every label under the folder LABELS (searched recursively,
named by file name without extension) into OUT: the fake server's corpus for a benchmark over a fixture set. A
variant that needs a value the label lacks (a wrong date without a labeled date) is not written."""
import json, os, sys
from decimal import Decimal

RECEIPTS = sys.argv[1] if len(sys.argv) > 1 else "../Receipts"
OUT = sys.argv[2] if len(sys.argv) > 2 else "."
# How a model names these merchants (the WildReceipt labels join every name box of the header).
NAMES = {"wr_13_10": "USA GASOLINE #68228", "wr_28_14": "Caffe Nero", "wr_89_9": "Panda Express"}
CATEGORIES = {"sroie_006": "Shopping", "wr_13_10": "Transportation"}


def right(label, name):
    items = []
    if label["source"].get("itemsCheck") in ("sum_matches_total", "sum_matches_subtotal"):
        items = [{"name": i["name"], "quantity": float(i["quantity"]) if i["quantity"] else None,
                  "unitPrice": Decimal(i["unitPrice"]) if i["unitPrice"] else None,
                  "totalPrice": Decimal(i["totalPrice"]), "category": "Food", "description": None}
                 for i in label["items"]]
    money = lambda key: Decimal(label[key]) if label[key] else None
    return {"date": label["date"], "merchant": NAMES.get(name, label["merchant"]), "currency": label["currency"],
            "items": items, "subtotal": money("subtotal"), "discounts": None, "fees": None, "tip": money("tip"),
            "taxAmount": money("tax"), "itemsTotal": None, "amount": money("total"),
            "category": CATEGORIES.get(name, "Food & Dining"), "description": None, "paymentMethod": None,
            "confidence": 0.92}


def text(reply):
    # Amounts as JSON numbers with their printed decimals (never through float).
    return json.dumps(reply, ensure_ascii=False, default=lambda d: f"@{d}@").replace('"@', "").replace('@"', "")


def variants(label, name):
    good = right(label, name)
    found = {
        "right": (text(good), False),
        "fenced": ("Here is the receipt as JSON:\n```json\n" + json.dumps(json.loads(text(good)), indent=2)
                   + "\n```\nLet me know if you need anything else.", False),
        "truncated": (text(good)[: len(text(good)) * 3 // 5], True),
        "wrong-merchant": (text(dict(good, merchant="Starbucks Coffee")), False),
    }
    if label["total"]:
        total = Decimal(label["total"])
        invented = dict(good, amount=total * 2 + Decimal("0.37"),
                        items=good["items"] + [{"name": "Service charge", "quantity": None, "unitPrice": None,
                                                "totalPrice": total, "category": "Service", "description": None}])
        found["invented"] = (text(invented), False)
    if label["date"]:
        year, month, day = (int(p) for p in label["date"].split("-"))
        found["wrong-date"] = (text(dict(good, date=f"{year - 1:04d}-{month:02d}-{(day % 28) + 1:02d}")), False)
    return found


def openai(reply, truncated):
    return {"id": "chatcmpl-recorded", "object": "chat.completion", "created": 1732400000, "model": "gpt-4o-2024-08-06",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply, "refusal": None},
                         "logprobs": None, "finish_reason": "length" if truncated else "stop"}],
            "usage": {"prompt_tokens": 1514, "completion_tokens": 212, "total_tokens": 1726}}


def anthropic(reply, truncated):
    return {"id": "msg_recorded", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": reply}],
            "stop_reason": "max_tokens" if truncated else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 1630, "output_tokens": 236}}


for shape, wrap in (("openai", openai), ("anthropic", anthropic)):
    os.makedirs(os.path.join(OUT, shape), exist_ok=True)
labels = sorted(os.path.join(folder, file) for folder, _, files in os.walk(RECEIPTS) for file in files
                if file.endswith(".json") and file != "manifest.json")
for path in labels:
    name = os.path.basename(path)[:-5]
    label = json.load(open(path))
    if "source" not in label:
        continue
    for variant, (reply, truncated) in variants(label, name).items():
        for shape, wrap in (("openai", openai), ("anthropic", anthropic)):
            with open(os.path.join(OUT, shape, f"{name}.{variant}.json"), "w") as out:
                json.dump(wrap(reply, truncated), out, ensure_ascii=False, indent=1)
                out.write("\n")
