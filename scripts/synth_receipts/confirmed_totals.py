"""Per dataset of a `pipeline bench` report: how many receipts' totals the reconciliation confirmed by their line
items or by their tax (the VAT table's gross sum, or subtotal + tax), and by the payment, from the checks that
passed (`findings` of bench.json). See docs/extraction-languages.md.

Usage: python3 scripts/synth_receipts/confirmed_totals.py REPORT_DIR/bench.json
"""
import collections
import json
import sys

CONFIRMED = ("balanced", "repaired")


def passed(receipt, *prefixes):
    """Whether a check that confirms the total passed: its message starts with one of `prefixes` and matches."""
    return receipt["outcome"] in CONFIRMED and any(
        message.startswith(prefixes) and "matching" in message for message in receipt["findings"])


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        receipts = json.load(handle)["receipts"]
    by_dataset = collections.defaultdict(list)
    for receipt in receipts:
        by_dataset[receipt["dataset"]].append(receipt)
    print(f"{'dataset':22} {'n':>4} {'by items':>9} {'by tax':>7} {'either':>7} {'payment':>8}  outcomes")
    for dataset, group in sorted(by_dataset.items()):
        items = [passed(r, "line items") for r in group]
        tax = [passed(r, "the VAT table", "tax ", "subtotal ") for r in group]
        payment = [passed(r, "amount tendered") or r["outcome"] in CONFIRMED
                   and any(m.startswith("the amount paid") for m in r["findings"]) for r in group]
        either = [a or b for a, b in zip(items, tax)]
        outcomes = collections.Counter(r["outcome"] for r in group)
        share = lambda flags: f"{sum(flags) / len(group):.2f}"
        print(f"{dataset:22} {len(group):4} {share(items):>9} {share(tax):>7} {share(either):>7} {share(payment):>8}  "
              + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))


if __name__ == "__main__":
    main()
