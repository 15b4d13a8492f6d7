"""Fits the extractor's candidate weights and the calibrated auto-accept model (see docs/extraction-fitting.md).

Subcommands (scripts/fit-extraction runs them in order):
  rank   TRAIN.jsonl... --out RANKING.json
         Fits one conditional-logit ranking model per field (total, merchant, date): the softmax over a receipt's
         candidates, trained to put its mass on the candidates that match the label; L2 strength chosen by 5-fold
         cross-validation over receipts.
  accept --train TRAIN.jsonl... --dev DEV.jsonl... --ranking RANKING.json --out MODEL.json --swift FILE.swift
         Fits P(total right) by logistic regression on the receipt-level acceptance features (dumped with the new
         ranking), chooses the threshold on out-of-fold training predictions for >= 99% precision, writes the model
         as JSON and as generated Swift, and prints train and dev figures side by side.
Inputs are `pipeline extraction-features` JSON lines.
"""
import argparse
import json
import math
import sys

import numpy as np
from scipy.optimize import minimize

FIELDS = ["total", "merchant", "date"]
GRID = [0.03, 0.1, 0.3, 1.0, 3.0]
TARGET_PRECISION = 0.99


def load(paths):
    records = []
    for path in paths:
        with open(path) as handle:
            records += [json.loads(line) for line in handle if line.strip()]
    return records


def groups(records, field, names=None):
    """Per receipt: the candidates' feature matrix and which are right (receipts with a right candidate only)."""
    if names is None:
        names = sorted({n for r in records if r.get(field) for c in r[field]["candidates"] for n in c["features"]})
    index = {n: i for i, n in enumerate(names)}
    out = []
    for record in records:
        field_record = record.get(field)
        if not field_record or not field_record["candidates"]:
            continue
        matrix = np.zeros((len(field_record["candidates"]), len(names)))
        correct = np.array([c["correct"] for c in field_record["candidates"]], dtype=bool)
        for row, candidate in enumerate(field_record["candidates"]):
            for name, value in candidate["features"].items():
                if name in index:
                    matrix[row, index[name]] = value
        out.append((matrix, correct))
    return names, out


def pack(data):
    """The receipts that can teach the ranking (a right candidate among two or more) as one stacked matrix, with
    each candidate's receipt number, whether it is right, and where each receipt's rows start."""
    usable = [(matrix, correct) for matrix, correct in data if correct.any() and len(correct) >= 2]
    if not usable:
        return None
    matrix = np.vstack([m for m, _ in usable])
    correct = np.concatenate([c for _, c in usable])
    sizes = [len(c) for _, c in usable]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    receipt = np.repeat(np.arange(len(usable)), sizes)
    return matrix, correct, starts, receipt


def rank_loss(weights, packed, strength):
    """Negative log-likelihood of the right candidates under each receipt's softmax, plus L2."""
    loss = 0.5 * strength * weights @ weights
    gradient = strength * weights.copy()
    if packed is None:
        return loss, gradient
    matrix, correct, starts, receipt = packed
    scores = matrix @ weights
    top = np.maximum.reduceat(scores, starts)
    exp = np.exp(scores - top[receipt])
    all_sum = np.add.reduceat(exp, starts)
    right_sum = np.add.reduceat(np.where(correct, exp, 0), starts)
    loss += float(np.sum(np.log(all_sum) - np.log(right_sum)))
    p_all = exp / all_sum[receipt]
    p_right = np.where(correct, exp, 0) / right_sum[receipt]
    gradient += matrix.T @ (p_all - p_right)
    return loss, gradient


def fit_rank(data, dimensions, strength):
    result = minimize(rank_loss, np.zeros(dimensions), args=(pack(data), strength), jac=True, method="L-BFGS-B")
    return result.x


def top1(weights, data):
    """Share of receipts (with any candidate) whose best-scored candidate is right; ties go to the earliest."""
    right = 0
    for matrix, correct in data:
        right += bool(correct[int(np.argmax(matrix @ weights))])
    return right / max(1, len(data))


def choose_strength(data, dimensions):
    folds = 5
    best = None
    for strength in GRID:
        scores = []
        for fold in range(folds):
            train = [d for i, d in enumerate(data) if i % folds != fold]
            test = [d for i, d in enumerate(data) if i % folds == fold]
            scores.append(top1(fit_rank(train, dimensions, strength), test))
        mean = float(np.mean(scores))
        if best is None or mean > best[1] + 1e-9:
            best = (strength, mean)
    return best


def command_rank(arguments):
    records = load(arguments.train)
    model, strengths = {}, {}
    for field in FIELDS:
        names, data = groups(records, field)
        strength, cv = choose_strength(data, len(names))
        strengths[field] = strength
        weights = fit_rank(data, len(names), strength)
        model[field] = {n: round(float(w), 4) for n, w in zip(names, weights)}
        print(f"{field}: {len(names)} features, L2 {strength}, 5-fold top-1 {cv:.3f},"
              f" train top-1 {top1(weights, data):.3f}"
              f" ({len(data)} receipts with candidates)", file=sys.stderr)
    model["acceptance"] = {"intercept": 0.0, "weights": {}, "threshold": 2.0}
    model["fitting"] = {field: strengths[field] for field in FIELDS}
    with open(arguments.out, "w") as handle:
        json.dump(model, handle, indent=1, sort_keys=True)


def acceptance_rows(records, names=None):
    """Receipts with a labeled total: features (zero when the total has no ranked evidence) and whether it is right."""
    if names is None:
        names = sorted({n for r in records if r.get("acceptance") for n in r["acceptance"]})
    rows, labels, usable = [], [], []
    for record in records:
        features = record.get("acceptance")
        rows.append([features.get(n, 0.0) if features else 0.0 for n in names])
        labels.append(bool(record["scored"].get("total", False)))
        usable.append(features is not None)
    return names, np.array(rows), np.array(labels), np.array(usable)


def logistic_loss(parameters, x, y, strength):
    z = parameters[0] + x @ parameters[1:]
    p = 1 / (1 + np.exp(-z))
    eps = 1e-12
    loss = -np.sum(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    loss += 0.5 * strength * parameters[1:] @ parameters[1:]
    gradient = np.concatenate([[np.sum(p - y)], x.T @ (p - y) + strength * parameters[1:]])
    return loss, gradient


def fit_logistic(x, y, strength=1.0):
    result = minimize(logistic_loss, np.zeros(x.shape[1] + 1), args=(x, y, strength), jac=True, method="L-BFGS-B")
    return result.x


def probabilities(parameters, x, usable):
    return np.where(usable, 1 / (1 + np.exp(-(parameters[0] + x @ parameters[1:]))), 0.0)


def threshold_for(p, y, labeled):
    """The lowest threshold whose accepted set (p >= t, labeled totals) has precision >= TARGET_PRECISION."""
    order = np.argsort(-p)
    right = total = 0
    best = 1.0
    for i in order:
        if not labeled[i] or p[i] <= 0:
            continue
        total += 1
        right += int(y[i])
        if right / total >= TARGET_PRECISION:
            best = float(p[i])
    return best


def log_odds(probability):
    """As AutoAcceptance.logOdds: the log-odds of a share, clipped to +-10 and scaled to +-1."""
    share = min(max(probability, 1e-6), 1 - 1e-6)
    return max(-10.0, min(10.0, math.log(share / (1 - share)))) / 10


def out_of_fold_total_evidence(records, model, folds=5):
    """Replaces each train receipt's total probability and margin by those an out-of-fold ranking gives its winner,
    so the acceptance model learns how far to trust the ranking on receipts it was not fitted on."""
    names = sorted(model["total"])
    weights = np.array([model["total"][n] for n in names])
    _, data = groups(records, "total", names)
    with_candidates = [r for r in records if r.get("total") and r["total"]["candidates"]]
    for fold in range(folds):
        fold_weights = fit_rank([d for i, d in enumerate(data) if i % folds != fold], len(names),
                                model["fitting"]["total"])
        for i in range(fold, len(data), folds):
            features = with_candidates[i].get("acceptance")
            if not features:
                continue
            matrix, _ = data[i]
            winner = int(np.argmax(matrix @ weights))
            scores = matrix @ fold_weights
            exp = np.exp(scores - scores.max())
            features["totalProbability"] = float(exp[winner] / exp.sum())
            features["totalLogOdds"] = log_odds(features["totalProbability"])
            others = np.delete(scores, winner)
            features["totalMargin"] = float(min(10, scores[winner] - others.max()) / 10) if len(others) else 1.0


def command_accept(arguments):
    train = load(arguments.train)
    dev = load(arguments.dev)
    with open(arguments.ranking) as handle:
        ranking = json.load(handle)
    in_sample = [dict(r["acceptance"]) if r.get("acceptance") else None for r in train]
    out_of_fold_total_evidence(train, ranking)
    labeled_train = np.array([bool(r.get("total")) and r["total"]["label"] is not None for r in train])
    names, x, y, usable = acceptance_rows(train)
    fit_x, fit_y = x[usable & labeled_train], y[usable & labeled_train]
    # Out-of-fold probabilities on train choose the threshold, so it is not set on the model's own fit.
    folds = 5
    out_of_fold = np.zeros(len(train))
    indices = np.arange(len(train))
    for fold in range(folds):
        held = indices % folds == fold
        parameters = fit_logistic(x[~held & usable & labeled_train], y[~held & usable & labeled_train])
        out_of_fold[held] = probabilities(parameters, x[held], usable[held])
    threshold = threshold_for(out_of_fold, y, labeled_train)
    parameters = fit_logistic(fit_x, fit_y)
    model = ranking
    model["acceptance"] = {
        "intercept": round(float(parameters[0]), 4),
        "weights": {n: round(float(w), 4) for n, w in zip(names, parameters[1:])},
        "threshold": round(threshold, 4),
    }
    with open(arguments.out, "w") as handle:
        json.dump(model, handle, indent=1, sort_keys=True)
    with open(arguments.swift, "w") as handle:
        handle.write(swift_source(model))
    print(f"acceptance: {len(names)} features, threshold {threshold:.4f}"
          f" (out-of-fold train precision >= {TARGET_PRECISION})",
          file=sys.stderr)
    for record, features in zip(train, in_sample):
        record["acceptance"] = features
    report({"train": train, "dev": dev}, model)


def accepted(records, model):
    acceptance = model["acceptance"]
    result = []
    for record in records:
        features = record.get("acceptance")
        if not features:
            result.append(False)
            continue
        z = acceptance["intercept"] + sum(acceptance["weights"].get(n, 0) * v for n, v in features.items())
        result.append(1 / (1 + math.exp(-z)) >= acceptance["threshold"])
    return result


def figures(records, model):
    """The issue's figures for one set of receipts."""
    rows = {}
    for field in ["total", "date", "merchant (fuzzy)", "merchant + date + total"]:
        scored = [r["scored"][field] for r in records if field in r["scored"]]
        rows[field] = (sum(scored), len(scored))
    items = [r["items"] for r in records if r.get("items")]
    matched = sum(i["matched"] for i in items)
    predicted = sum(i["predicted"] for i in items)
    expected = sum(i["expected"] for i in items)
    precision = matched / predicted if predicted else 0
    recall = matched / expected if expected else 0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
    rows["items F1"] = (f1, None) if items else None
    flags = accepted(records, model)
    chosen = [r for r, a in zip(records, flags) if a]
    with_total = [r["scored"]["total"] for r in chosen if "total" in r["scored"]]
    rows["auto-accepted share"] = (len(chosen), len(records))
    rows["accepted: right total"] = (sum(with_total), len(with_total))
    all_three = [r["scored"]["merchant + date + total"] for r in chosen if "merchant + date + total" in r["scored"]]
    rows["accepted: all three right"] = (sum(all_three), len(all_three))
    return rows


def cell(value):
    if value is None:
        return "–"
    number, count = value
    if count is None:
        return f"{number:.2f}"
    return f"{number / count:.3f} ({number}/{count})" if count else "–"


def report(sets, model):
    columns = []
    for split, records in sets.items():
        for dataset in sorted({r["dataset"] for r in records}):
            columns.append((f"{split} {dataset}", figures([r for r in records if r["dataset"] == dataset], model)))
    names = ["total", "date", "merchant (fuzzy)", "merchant + date + total", "items F1", "auto-accepted share",
             "accepted: right total", "accepted: all three right"]
    table = [["field"] + [c[0] for c in columns]] + [[n] + [cell(c[1][n]) for c in columns] for n in names]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for number, row in enumerate(table):
        print("| " + " | ".join(text.ljust(widths[i]) for i, text in enumerate(row)) + " |")
        if number == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def swift_case(name):
    """The Swift enum case of a feature name (`ExtractionFeatures.swift`): `total.ocrConfidence` is
    `totalOCRConfidence`, `itemsSum` stays `itemsSum`."""
    first, *rest = name.split(".")
    return first + "".join((part[0].upper() + part[1:]).replace("Ocr", "OCR") for part in rest)


def swift_dictionary(weights, indent):
    if not weights:
        return "[:]"
    pad = " " * indent
    entries = "\n".join(f"{pad}    .{swift_case(name)}: {value!r}," for name, value in sorted(weights.items()))
    return "[\n" + entries + f"\n{pad}]"


def swift_source(model):
    acceptance = model["acceptance"]
    return f"""// Generated by scripts/fit-extraction from the fit in scripts/fit_extraction/model.json; do not edit (rerun it).

extension ExtractionModel {{
    /// The committed fit: candidate weights and the calibrated acceptance model (docs/extraction-fitting.md).
    public static let fitted = ExtractionModel(
        total: {swift_dictionary(model["total"], 8)},
        merchant: {swift_dictionary(model["merchant"], 8)},
        date: {swift_dictionary(model["date"], 8)},
        acceptance: AcceptanceModel(
            intercept: {acceptance["intercept"]!r},
            weights: {swift_dictionary(acceptance["weights"], 12)},
            threshold: {acceptance["threshold"]!r}))
}}
"""


def command_report(arguments):
    with open(arguments.model) as handle:
        model = json.load(handle)
    sets = {"train": load(arguments.train or []), "dev": load(arguments.dev or []),
            "synthetic": load(arguments.synthetic or [])}
    report({split: records for split, records in sets.items() if records}, model)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    rank = commands.add_parser("rank")
    rank.add_argument("train", nargs="+")
    rank.add_argument("--out", required=True)
    accept = commands.add_parser("accept")
    accept.add_argument("--train", nargs="+", required=True)
    accept.add_argument("--dev", nargs="+", required=True)
    accept.add_argument("--ranking", required=True)
    accept.add_argument("--out", required=True)
    accept.add_argument("--swift", required=True)
    show = commands.add_parser("report")
    show.add_argument("--train", nargs="+")
    show.add_argument("--dev", nargs="+")
    show.add_argument("--synthetic", nargs="+", help="generated receipts, reported on their own")
    show.add_argument("--model", required=True)
    arguments = parser.parse_args()
    {"rank": command_rank, "accept": command_accept, "report": command_report}[arguments.command](arguments)


if __name__ == "__main__":
    main()
