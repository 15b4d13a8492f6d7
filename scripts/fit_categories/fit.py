#!/usr/bin/env python3
"""Fits the offline categorizer (multinomial naive Bayes over CategoryEvidence features) on the TRAIN fixtures.

Smoothing, the vocabulary's spread (in how many merchants a feature must occur) and the probability threshold are
chosen by cross-validation grouped by merchant, so that no merchant is on both sides of a fold: SROIE repeats
merchants, and a model that memorizes names would look better than it is. The temperature that calibrates the
probabilities is fitted on the same out-of-fold predictions. Writes the model as JSON and as generated Swift
(CategoryModel.fitted); prints the cross-validation and the train/dev figures of the whole chain offline (seeded
rules, then the merchant's brand, then the model, then the items' majority, else Other). Standard library only.
See docs/categories.md.
"""
import argparse
import json
import math
import re
from collections import Counter, defaultdict

# ExpenseCategory raw values and their Swift case names.
CASES = {
    "Food & Dining": "foodAndDining", "Groceries": "groceries", "Transportation": "transportation",
    "Shopping": "shopping", "Entertainment": "entertainment", "Bills & Utilities": "billsAndUtilities",
    "Healthcare": "healthcare", "Travel": "travel", "Education": "education", "Business": "business",
    "Other": "other",
}
LEGAL = {"SDN", "BHD", "SB", "PLT", "LLC", "LTD", "INC", "CO", "CORP", "THE", "M", "S", "B", "WELCOME", "TO"}
FOLDS = 5
# A category with fewer train receipts than this is left to the rules, people and the LLM: a handful of examples
# gives its words likelihoods that are mostly smoothing.
MIN_CATEGORY_RECEIPTS = 5
# What a wrong category costs against a right one (+1) and "not sure" (0): both leave a person a fix, the wrong one
# silently, so it costs more than "not sure" but not twice a right answer.
WRONG = -0.5


def load(paths):
    records = []
    for path in paths:
        with open(path) as handle:
            records += [json.loads(line) for line in handle if line.strip()]
    return [r for r in records if r.get("category")]


def merchant_group(merchant):
    """Receipts of one merchant share a group: the first six letters and digits of its name, legal words dropped."""
    words = [w for w in re.split(r"[^A-Z0-9]+", (merchant or "").upper()) if w and w not in LEGAL]
    return "".join(words)[:6] or "?"


def fit(records, alpha, min_groups):
    """Class log priors and per-feature log likelihoods, over features seen with at least `min_groups` merchants."""
    groups_of = defaultdict(set)
    for r in records:
        for f in r["features"]:
            groups_of[f].add(merchant_group(r["merchant"]))
    vocabulary = sorted(f for f, g in groups_of.items() if len(g) >= min_groups)
    index = {f: i for i, f in enumerate(vocabulary)}
    documents = Counter(r["category"] for r in records)
    classes = sorted((c for c in documents if documents[c] >= MIN_CATEGORY_RECEIPTS), key=list(CASES).index)
    records = [r for r in records if r["category"] in classes]
    counts = {c: [0] * len(vocabulary) for c in classes}
    for r in records:
        row = counts[r["category"]]
        for f in r["features"]:
            if f in index:
                row[index[f]] += 1
    priors = [math.log((documents[c] + 1) / (len(records) + len(classes))) for c in classes]
    likelihoods = {}
    totals = {c: sum(counts[c]) for c in classes}
    for f, i in index.items():
        likelihoods[f] = [
            math.log((counts[c][i] + alpha) / (totals[c] + alpha * len(vocabulary))) for c in classes
        ]
    return {"categories": classes, "logPriors": priors, "logLikelihoods": likelihoods}


def scores(model, features):
    known = [model["logLikelihoods"][f] for f in features if f in model["logLikelihoods"]]
    if not known:
        return None
    total = list(model["logPriors"])
    for weights in known:
        for k, w in enumerate(weights):
            total[k] += w
    return total


def probabilities(total, temperature):
    scaled = [s / temperature for s in total]
    top = max(scaled)
    exps = [math.exp(s - top) for s in scaled]
    norm = sum(exps)
    return [e / norm for e in exps]


def out_of_fold(records, alpha, min_groups):
    """(record, categories, raw scores) for every record, each scored by a model fitted without its merchant."""
    groups = sorted({merchant_group(r["merchant"]) for r in records})
    # Deterministic folds: groups dealt round-robin by size, largest first.
    sizes = Counter(merchant_group(r["merchant"]) for r in records)
    fold_of = {g: k % FOLDS for k, g in enumerate(sorted(groups, key=lambda g: (-sizes[g], g)))}
    result = []
    for fold in range(FOLDS):
        training = [r for r in records if fold_of[merchant_group(r["merchant"])] != fold]
        model = fit(training, alpha, min_groups)
        for r in records:
            if fold_of[merchant_group(r["merchant"])] == fold:
                result.append((r, model["categories"], scores(model, r["features"])))
    return result


def log_loss(predictions, temperature):
    loss, n = 0.0, 0
    for r, classes, total in predictions:
        if total is None or r["category"] not in classes:
            continue
        p = probabilities(total, temperature)[classes.index(r["category"])]
        loss -= math.log(max(p, 1e-12))
        n += 1
    return loss / max(n, 1)


def decided_before_model(record):
    """Whether a seeded rule or the merchant's brand decides the receipt before the model is asked."""
    return bool(record.get("ruleCategory") or record.get("brandCategory"))


def chain(record, classes, total, temperature, threshold):
    """The categorizer's decision offline: a seeded rule, else the merchant's brand, else the model when sure enough,
    else the items, else Other."""
    if record.get("ruleCategory"):
        return record["ruleCategory"], "rule"
    if record.get("brandCategory"):
        return record["brandCategory"], "brand"
    if total is not None:
        p = probabilities(total, temperature)
        best = max(range(len(p)), key=p.__getitem__)
        if p[best] >= threshold:
            return classes[best], "model"
    if record.get("itemsCategory", "Other") != "Other":
        return record["itemsCategory"], "items"
    return "Other", "unsure"


def utility(predictions, temperature, threshold):
    """Over receipts no rule or brand decides: +1 for a right category, WRONG for a wrong one, 0 for Other (not sure)."""
    value = 0
    for r, classes, total in predictions:
        if decided_before_model(r):
            continue
        got, _ = chain(r, classes, total, temperature, threshold)
        value += 0 if got == "Other" and r["category"] != "Other" else (1 if got == r["category"] else WRONG)
    return value


def figures(records, model, temperature, threshold):
    right = other = 0
    sources = Counter()
    for r in records:
        got, source = chain(r, model["categories"], scores(model, r["features"]), temperature, threshold)
        right += got == r["category"]
        other += got == "Other"
        sources[source] += 1
    n = len(records)
    return f"accuracy {right / n:.3f} ({right}/{n}), Other {other / n:.3f} ({other}/{n}), decided by {dict(sources)}"


def swift(model, temperature, threshold):
    cases = ", ".join("." + CASES[c] for c in model["categories"])
    priors = ", ".join(f"{p:.4f}" for p in model["logPriors"])
    lines = []
    for f in sorted(model["logLikelihoods"]):
        weights = model["logLikelihoods"][f]
        mean = sum(weights) / len(weights)  # a shift common to every category cancels in the softmax
        if "\t" in f or "\n" in f or '"""' in f or "\\" in f:
            continue
        lines.append(f + "\t" + "\t".join(f"{w - mean:.3f}" for w in weights))
    table = "\n".join("        " + line for line in lines)
    return f'''// Generated by scripts/fit-categories from the fit in scripts/fit_categories/model.json; do not edit (rerun it).

extension CategoryModel {{
    /// The committed fit (docs/categories.md): naive Bayes over `CategoryEvidence` features, calibrated.
    public static let fitted = CategoryModel(
        categories: [{cases}],
        logPriors: [{priors}],
        logLikelihoods: table(fittedWeights, categories: {len(model["categories"])}),
        temperature: {temperature}, threshold: {threshold})

    /// One line per feature: its name, then its log likelihood per category (less their mean), tab-separated.
    private static let fittedWeights = """
{table}
        """
}}
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--train", nargs="+", required=True)
    parser.add_argument("--dev", nargs="*", default=[])
    parser.add_argument("--out", required=True)
    parser.add_argument("--swift", required=True)
    args = parser.parse_args()
    train = load(args.train)
    print(f"train: {len(train)} receipts, {len({merchant_group(r['merchant']) for r in train})} merchant groups")

    best = None
    print("grouped 5-fold cross-validation (no merchant in two folds); receipts no rule or brand decides:")
    print("  alpha  min merchants  log loss (T=1)  model accuracy")
    for alpha in (0.1, 0.3, 1.0, 3.0):
        for min_groups in (1, 2, 3, 5):
            predictions = out_of_fold(train, alpha, min_groups)
            uncovered = [(r, c, t) for r, c, t in predictions if not decided_before_model(r)]
            right = sum(
                1 for r, c, t in uncovered if t is not None and c[max(range(len(t)), key=t.__getitem__)] == r["category"])
            accuracy = right / len(uncovered)
            loss = log_loss(uncovered, 1.0)
            print(f"  {alpha:5}  {min_groups:13}  {loss:14.3f}  {accuracy:.3f} ({right}/{len(uncovered)})")
            if best is None or accuracy > best[0] + 1e-9:
                best = (accuracy, alpha, min_groups, predictions)
    _, alpha, min_groups, predictions = best
    temperatures = [t / 4 for t in range(2, 161)]
    temperature = min(temperatures, key=lambda t: log_loss(predictions, t))
    print(f"chosen: alpha {alpha}, features seen with >= {min_groups} merchants; temperature {temperature} "
          f"(out-of-fold log loss {log_loss(predictions, 1.0):.3f} -> {log_loss(predictions, temperature):.3f})")
    print(f"  threshold  utility (+1 right, {WRONG} wrong, 0 not sure)  chain accuracy / Other share (out of fold)")
    thresholds = [t / 20 for t in range(0, 20)]
    for t in thresholds:
        got = [chain(r, c, s, temperature, t)[0] for r, c, s in predictions]
        right = sum(g == r["category"] for g, (r, _, _) in zip(got, predictions))
        other = sum(g == "Other" for g in got)
        print(f"  {t:9.2f}  {utility(predictions, temperature, t):6.1f}  "
              f"{right / len(got):.3f} / {other / len(got):.3f}")
    threshold = max(thresholds, key=lambda t: (utility(predictions, temperature, t), -t))
    print(f"chosen threshold {threshold}")

    model = fit(train, alpha, min_groups)
    print(f"final model: {len(model['logLikelihoods'])} features, categories {model['categories']}")
    print("whole chain (seeded rules -> brand -> model -> items -> Other):")
    print("  train, all pages (fitted on):", figures(train, model, temperature, threshold))
    oof_right = sum(chain(r, c, s, temperature, threshold)[0] == r["category"] for r, c, s in predictions)
    print(f"  train, out of fold by merchant: accuracy {oof_right / len(predictions):.3f}")
    for path in args.train:
        print(f"  train, {path.rsplit('/', 1)[-1]}:", figures(load([path]), model, temperature, threshold))
    for path in args.dev:
        print(f"  dev, {path.rsplit('/', 1)[-1]}:", figures(load([path]), model, temperature, threshold))
    with open(args.out, "w") as handle:
        json.dump({"alpha": alpha, "minMerchants": min_groups, "temperature": temperature, "threshold": threshold,
                   **model}, handle, indent=1, sort_keys=True)
    with open(args.swift, "w") as handle:
        handle.write(swift(model, temperature, threshold))


if __name__ == "__main__":
    main()
