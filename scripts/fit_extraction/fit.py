"""Fits the extractor's candidate weights and the calibrated auto-accept model (see docs/extraction-fitting.md).

Subcommands (scripts/fit-extraction runs them in order):
  rank   TRAIN.jsonl... --out RANKING.json
         Fits one conditional-logit ranking model per field (total, merchant, date): the softmax over a receipt's
         candidates, trained to put its mass on the candidates that match the label; L2 strength chosen by 5-fold
         cross-validation over receipts.
  accept --train TRAIN.jsonl... --dev DEV.jsonl... --ranking RANKING.json --out MODEL.json --swift FILE.swift
         Fits P(field right) for each key field (merchant, date, total) by logistic regression on its trust features
         (dumped with the new ranking), one set of models per reader (the OCR engine that read the page), and for
         each trust budget in BUDGETS chooses the three thresholds jointly, with whether items that do not add up
         (`unbalanced`) or an unconfirmed total (`incomplete`) still hold a receipt, on out-of-fold training
         predictions of that reader's pages: the fewest receipts sent to a person while at most that many in 100 are
         accepted with a key field wrong. Writes the models as JSON and as generated Swift, and prints train and dev
         figures side by side at the default budget (accepted: every key field trusted, no reason that holds) and
         the trade-off at every budget.
Inputs are `pipeline extraction-features` JSON lines.
"""
import argparse
import json
import math
import sys
import zlib

import numpy as np
from scipy.optimize import minimize

FIELDS = ["total", "merchant", "date"]
GRID = [0.03, 0.1, 0.3, 1.0, 3.0]
FOLDS = 5
# The trust budgets the fit chooses a point for (silent errors per 100 receipts, out of fold on train); the configured
# `acceptance.maxSilentPer100` takes the largest not above it, so a budget needs no refit. DEFAULT_BUDGET is the
# configuration's default, whose point the models' own thresholds are (and the report's figures).
BUDGETS = [0.25, 0.5, 1.0, 2.0, 3.0, 5.0]
DEFAULT_BUDGET = 1.0
# The reconciliation reasons a budget point may let go of (`TrustModels.reconciliationHolds`): a receipt whose key
# fields are trusted is then accepted with the failed check kept as a finding.
RECONCILIATION_HOLDS = ["incomplete", "unbalanced"]
# Quantiles of each field's out-of-fold probabilities tried as its threshold.
THRESHOLD_GRID = 61


def load(paths):
    records = []
    for path in paths:
        with open(path) as handle:
            records += [json.loads(line) for line in handle if line.strip()]
    return records


def fold_of(record, partition=0):
    """The cross-validation fold of a receipt, by its name: the copies of one receipt (each engine's page, first
    pass and with merchants learned) stay in one fold, so no fold is scored on a receipt it was fitted on. Partition
    0 is the fit's own; others (`--partitions`) deal the receipts into folds anew, to show how much the out-of-fold
    figures owe to one dealing."""
    key = record["name"] if partition == 0 else f"{partition}/{record['name']}"
    return zlib.crc32(key.encode()) % FOLDS


def groups(records, field, names=None, partition=0):
    """Per receipt with candidates: the candidates' feature matrix, which are right, and the receipt's fold."""
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
        out.append((matrix, correct, fold_of(record, partition)))
    return names, out


def pack(data):
    """The receipts that can teach the ranking (a right candidate among two or more) as one stacked matrix, with
    each candidate's receipt number, whether it is right, and where each receipt's rows start."""
    usable = [(matrix, correct) for matrix, correct, _ in data if correct.any() and len(correct) >= 2]
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
    for matrix, correct, _ in data:
        right += bool(correct[int(np.argmax(matrix @ weights))])
    return right / max(1, len(data))


def choose_strength(data, dimensions):
    best = None
    for strength in GRID:
        scores = []
        for fold in range(FOLDS):
            train = [d for d in data if d[2] != fold]
            test = [d for d in data if d[2] == fold]
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
    model["trust"] = {reader: {field: {"intercept": 0.0, "weights": {}, "threshold": 2.0} for field in TRUST_FIELDS}
                      for reader in READERS}
    model["fitting"] = {field: strengths[field] for field in FIELDS}
    with open(arguments.out, "w") as handle:
        json.dump(model, handle, indent=1, sort_keys=True)


SCORED = {"total": "total", "date": "date", "merchant": "merchant (fuzzy)"}
TRUST_FIELDS = ["merchant", "date", "total"]
# The readers (`PageReader` in ExtractionModel.swift) with trust models of their own: each is fitted and thresholded
# on the pages that reader read (the dump's `reader`), since the engines differ in how often a confident-looking
# reading is wrong.
READERS = ["ppocr", "tesseract"]
# The weight of `confirmedByModel` (the vision LLM read the same value, printed on the page), set by hand: train has
# no model readings to fit it on. ln(LR) with the likelihood ratio LR = P(agree | right) / P(agree | wrong) bounded
# conservatively: a model that reads the field right agrees with a right rules value at least 90% of the time, and
# agrees with a wrong one (the same wrong value read independently) at most 10% of the time, so LR >= 9
# (docs/extraction-fitting.md, "Two readers").
CONFIRMED_BY_MODEL = "confirmedByModel"
CONFIRMED_WEIGHT = round(math.log(0.9 / 0.1), 4)
# The trust features every key field has (`SharedTrustFeature` in ExtractionFeatures.swift; ExtractionModelTests
# checks the fit names exactly these and `own.` + each ranking feature of the field). A feature no train receipt
# carries is fitted to 0 rather than left out.
SHARED_TRUST = ["share", "logOdds", "margin", "candidates", "pageConfidence", "balanced", "repaired", "unbalanced",
                "totalInferred"]


def trust_names(ranking, field):
    """The fitted trust features of `field`: the shared ones and the winner's own ranking features (`own.`)."""
    return sorted(SHARED_TRUST + ["own." + name for name in ranking[field]])


def labeled(record, field):
    """Whether the receipt's label scores this key field (a label that holds a value for it)."""
    return bool(record.get(field)) and record[field]["label"] is not None and SCORED[field] in record["scored"]


def right(record, field):
    return bool(record["scored"].get(SCORED[field], False))


def trust_rows(records, field, names):
    """Per receipt: the field's trust features `names` (zero when it has no ranked evidence), whether it is right,
    whether it has features, whether its label scores it."""
    rows, labels, usable, scored = [], [], [], []
    for record in records:
        features = (record.get("trust") or {}).get(field)
        rows.append([features.get(n, 0.0) if features else 0.0 for n in names])
        labels.append(right(record, field))
        usable.append(features is not None)
        scored.append(labeled(record, field))
    return names, np.array(rows), np.array(labels), np.array(usable), np.array(scored)


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


def log_odds(probability):
    """As AutoAcceptance.logOdds: the log-odds of a share, clipped to +-10 and scaled to +-1."""
    share = min(max(probability, 1e-6), 1 - 1e-6)
    return max(-10.0, min(10.0, math.log(share / (1 - share)))) / 10


def normalized_name(name):
    """As TextSimilarity.normalized: upper-cased letters and digits only."""
    return "".join(c for c in name.upper() if c.isalnum())


def same_answer(candidates, winner):
    """The candidates whose name is the winner's (the same letters and digits), the winner among them: the merchant's
    share counts them all (`MerchantExtractor.extract`)."""
    key = normalized_name(candidates[winner]["value"])
    return [i for i, c in enumerate(candidates) if i == winner or key and normalized_name(c["value"]) == key]


def out_of_fold_evidence(records, model, field, partition=0):
    """Replaces each train receipt's share and margin of `field` by those an out-of-fold ranking gives its winner
    (the merchant's share counting every candidate of the same name), so the trust model learns how far to trust the
    ranking on receipts it was not fitted on."""
    names = sorted(model[field])
    weights = np.array([model[field][n] for n in names])
    _, data = groups(records, field, names, partition)
    with_candidates = [r for r in records if r.get(field) and r[field]["candidates"]]
    for fold in range(FOLDS):
        fold_weights = fit_rank([d for d in data if d[2] != fold], len(names), model["fitting"][field])
        for i in (i for i, d in enumerate(data) if d[2] == fold):
            features = (with_candidates[i].get("trust") or {}).get(field)
            if not features:
                continue
            matrix, _, _ = data[i]
            winner = int(np.argmax(matrix @ weights))
            scores = matrix @ fold_weights
            exp = np.exp(scores - scores.max())
            same = same_answer(with_candidates[i][field]["candidates"], winner) if field == "merchant" else [winner]
            features["share"] = float(exp[same].sum() / exp.sum())
            features["logOdds"] = log_odds(features["share"])
            others = np.delete(scores, winner)
            features["margin"] = float(min(10, scores[winner] - others.max()) / 10) if len(others) else 1.0


def fit_trust(train, field, names, partition=0):
    """One field's trust model over `names`, with its out-of-fold probabilities on train (for the thresholds)."""
    names, x, y, usable, scored = trust_rows(train, field, names)
    fit_rows = usable & scored
    out_of_fold = np.zeros(len(train))
    folds = np.array([fold_of(record, partition) for record in train])
    for fold in range(FOLDS):
        held = folds == fold
        parameters = fit_logistic(x[~held & fit_rows], y[~held & fit_rows])
        out_of_fold[held] = probabilities(parameters, x[held], usable[held])
    parameters = fit_logistic(x[fit_rows], y[fit_rows])
    weights = {n: round(float(w), 4) for n, w in zip(names, parameters[1:])}
    weights[CONFIRMED_BY_MODEL] = CONFIRMED_WEIGHT
    model = {"intercept": round(float(parameters[0]), 4), "weights": weights, "threshold": 1.0}
    return model, out_of_fold, y, scored


def holds_of(records):
    """Per receipt: which reconciliation reasons its checks give (`holds` in the dump), as one boolean row each."""
    return {reason: np.array([reason in r.get("holds", []) for r in records]) for reason in RECONCILIATION_HOLDS}


def hold_choices():
    """Every subset of RECONCILIATION_HOLDS, holding all first (today's rule)."""
    subsets = [[]]
    for reason in RECONCILIATION_HOLDS:
        subsets += [subset + [reason] for subset in subsets]
    return sorted(subsets, key=len, reverse=True)


def budget_points(out_of_fold, holds):
    """For each budget in BUDGETS, the thresholds (one per key field) and the reconciliation reasons that hold,
    chosen together on out-of-fold train probabilities: the fewest receipts sent to a person while the receipts
    accepted with any scored key field wrong stay within the budget per 100 receipts. A receipt is accepted when
    every field clears its threshold and none of the chosen reasons applies to it. Ties go to fewer silent errors;
    among the thresholds that tie on both, each field's is the median of theirs (the middle of the gap between
    out-of-fold probabilities, not its edge: a threshold at the largest probability seen, 1.0 where a model
    saturates, would trust nothing it had not seen)."""
    fields = TRUST_FIELDS
    receipts = len(out_of_fold[fields[0]][0])
    wrong = np.zeros(receipts, dtype=bool)
    for field in fields:
        _, y, scored = out_of_fold[field]
        wrong |= scored & ~y
    grids = {}
    for field in fields:
        p = out_of_fold[field][0]
        values = np.unique(p[p > 0])
        grids[field] = (np.unique(np.quantile(values, np.linspace(0, 1, THRESHOLD_GRID))) if len(values)
                        else np.array([1.0]))
    pm, pd, pt = (out_of_fold[field][0] for field in fields)
    # Every (thresholds, holds) combination: accepted and silent counts.
    outcomes = []
    total_clears = pt[None, :] >= grids["total"][:, None]
    for chosen in hold_choices():
        blocked = np.zeros(receipts, dtype=bool)
        for reason in chosen:
            blocked |= holds[reason]
        for tm in grids["merchant"]:
            for td in grids["date"]:
                base = (pm >= tm) & (pd >= td) & ~blocked
                accepted = total_clears & base[None, :]
                counts = accepted.sum(axis=1)
                silent = (accepted & wrong[None, :]).sum(axis=1)
                for tt, count, errors in zip(grids["total"], counts, silent):
                    outcomes.append((int(count), int(errors), float(tm), float(td), float(tt), chosen))
    def counts(tm, td, tt, chosen):
        blocked = np.zeros(receipts, dtype=bool)
        for reason in chosen:
            blocked |= holds[reason]
        accepted = (pm >= tm) & (pd >= td) & (pt >= tt) & ~blocked
        return int(accepted.sum()), int((accepted & wrong).sum())

    points = []
    for budget in BUDGETS:
        allowed = budget * receipts / 100
        feasible = [o for o in outcomes if o[1] <= allowed + 1e-9]
        count, errors, tm, td, tt, chosen = max(feasible, key=lambda o: (o[0], -o[1], -len(o[5])))
        ties = np.array([o[2:5] for o in feasible if o[0] == count and o[1] == errors and o[5] == chosen])
        middle = [float(np.median(ties[:, i])) for i in range(3)]
        if counts(*middle, chosen) == (count, errors):
            tm, td, tt = middle
        # Rounded down, and finely: a date model can put right readings at 0.99996, which 4 decimals make 1.0.
        points.append({"maxSilentPer100": budget, "merchant": floor6(tm), "date": floor6(td),
                       "total": floor6(tt), "holds": sorted(chosen),
                       "touchesPer100": round(100 * (receipts - count) / receipts, 2),
                       "silentPer100": round(100 * errors / receipts, 2)})
    return points


def floor6(threshold):
    """A threshold rounded down to a millionth."""
    return math.floor(threshold * 1e6) / 1e6


def default_point(points):
    """The point the configuration's default budget takes (as `TrustModels.point(forBudget:)`)."""
    below = [p for p in points if p["maxSilentPer100"] <= DEFAULT_BUDGET + 1e-9]
    return below[-1] if below else points[0]


def fit_out_of_fold(pages, ranking, partition=0):
    """The three trust models fitted on `pages`, each with its out-of-fold probabilities on them, for one dealing of
    the receipts into folds (the ranking's share and margin made out of fold on the same dealing)."""
    for field in TRUST_FIELDS:
        out_of_fold_evidence(pages, ranking, field, partition)
    return {field: fit_trust(pages, field, trust_names(ranking, field), partition) for field in TRUST_FIELDS}


def fit_reader_trust(train, ranking, reader):
    """The three trust models of one reader, fitted and thresholded (jointly, out of fold) on its train pages."""
    pages = [r for r in train if r["reader"] == reader]
    if not pages:
        sys.exit(f"error: no train pages read by {reader}; pass a cache root for every reader ({', '.join(READERS)})")
    fitted = fit_out_of_fold(pages, ranking)
    points = budget_points({f: fitted[f][1:] for f in TRUST_FIELDS}, holds_of(pages))
    chosen = default_point(points)
    models = {"holds": chosen["holds"], "budgets": points}
    for field in TRUST_FIELDS:
        trust, out_of_fold, _, scored = fitted[field]
        trust["threshold"] = chosen[field]
        models[field] = trust
        trusted = out_of_fold >= chosen[field]
        print(f"{reader} {field} trust: {len(trust['weights']) - 1} features, threshold {chosen[field]:.6f};"
              f" out of fold on train: {int((trusted & scored).sum())} of {int(scored.sum())} scored trusted",
              file=sys.stderr)
    for point in points:
        print(f"{reader} budget {point['maxSilentPer100']:g}: thresholds merchant {point['merchant']:.6f}, date"
              f" {point['date']:.6f}, total {point['total']:.6f}, held by {', '.join(point['holds']) or 'no check'};"
              f" out of fold on train ({len(pages)} receipt pages): touches {point['touchesPer100']:.1f},"
              f" silent {point['silentPer100']:.2f} per 100", file=sys.stderr)
    return models


def partition_spread(train, ranking, reader, partitions):
    """The default budget's out-of-fold point of one reader on `partitions` dealings of the train receipts into
    folds, each chosen on its own dealing, and the point chosen on all of them pooled: how far the point moves with
    the dealing alone, so evidence worth less than that is not told from noise (docs/extraction-fitting.md)."""
    pooled = {field: [] for field in TRUST_FIELDS}
    pooled_holds = []
    for partition in range(partitions):
        pages = [json.loads(json.dumps(r)) for r in train if r["reader"] == reader]
        fitted = {field: run[1:] for field, run in fit_out_of_fold(pages, ranking, partition).items()}
        for field in TRUST_FIELDS:
            pooled[field].append(fitted[field])
        pooled_holds.append(holds_of(pages))
        point = default_point(budget_points(fitted, pooled_holds[-1]))
        print(f"{reader} dealing {partition} of the receipts into folds: budget {DEFAULT_BUDGET:g} out of fold,"
              f" touches {point['touchesPer100']:.1f}, silent {point['silentPer100']:.2f} per 100", file=sys.stderr)
    stacked = {field: tuple(np.concatenate([run[k] for run in pooled[field]]) for k in range(3))
               for field in TRUST_FIELDS}
    holds = {reason: np.concatenate([run[reason] for run in pooled_holds]) for reason in RECONCILIATION_HOLDS}
    point = default_point(budget_points(stacked, holds))
    print(f"{reader} all {partitions} dealings pooled: budget {DEFAULT_BUDGET:g} out of fold, touches"
          f" {point['touchesPer100']:.1f}, silent {point['silentPer100']:.2f} per 100 (thresholds merchant"
          f" {point['merchant']:.4f}, date {point['date']:.4f}, total {point['total']:.4f})", file=sys.stderr)


def command_accept(arguments):
    train = load(arguments.train)
    dev = load(arguments.dev)
    with open(arguments.ranking) as handle:
        ranking = json.load(handle)
    in_sample = [json.loads(json.dumps(r.get("trust"))) for r in train]
    model = ranking
    readers = arguments.readers or READERS
    kept = {}
    if arguments.keep_trust_from:
        with open(arguments.keep_trust_from) as handle:
            kept = json.load(handle)["trust"]
    model["trust"] = {reader: fit_reader_trust(train, ranking, reader) if reader in readers else kept[reader]
                      for reader in READERS}
    with open(arguments.out, "w") as handle:
        json.dump(model, handle, indent=1, sort_keys=True)
    with open(arguments.swift, "w") as handle:
        handle.write(swift_source(model))
    for reader in readers if arguments.partitions > 1 else []:
        partition_spread(train, ranking, reader, arguments.partitions)
    for record, features in zip(train, in_sample):
        record["trust"] = features
    report({"train": train, "dev": dev}, model)


def trusted(record, field, model, point):
    features = (record.get("trust") or {}).get(field)
    if not features:
        return False
    trust = model["trust"][record["reader"]][field]
    z = trust["intercept"] + sum(trust["weights"].get(n, 0) * v for n, v in features.items())
    return 1 / (1 + math.exp(-z)) >= point(record)[field]


def at_budget(model, budget):
    """Per record: the fitted point of its reader for `budget` (as `TrustModels.point(forBudget:)`)."""
    def point(record):
        points = model["trust"][record["reader"]]["budgets"]
        below = [p for p in points if p["maxSilentPer100"] <= budget + 1e-9]
        return below[-1] if below else points[0]
    return point


def accepted(records, model, budget=DEFAULT_BUDGET):
    point = at_budget(model, budget)
    return [all(trusted(r, field, model, point) for field in TRUST_FIELDS)
            and not set(r.get("holds", [])) & set(point(r)["holds"]) for r in records]


def wrong_accepted(records, flags):
    """How many accepted records have a scored key field wrong."""
    return sum(1 for r, a in zip(records, flags)
               if a and any(labeled(r, f) and not right(r, f) for f in TRUST_FIELDS))


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
    rows["auto-accepted share"] = (len(chosen), len(records))
    for field in TRUST_FIELDS:
        scored = [right(r, field) for r in chosen if labeled(r, field)]
        rows[f"accepted: right {field}"] = (sum(scored), len(scored))
    rows["silent errors per 100"] = per_hundred(wrong_accepted(records, flags), len(records))
    rows["touches per 100"] = per_hundred(len(records) - len(chosen), len(records))
    for budget in BUDGETS:
        at = accepted(records, model, budget)
        rows[f"budget {budget:g}: touches / silent"] = (
            f"{100 * (len(records) - sum(at)) / len(records):.1f} / {100 * wrong_accepted(records, at) / len(records):.1f}"
            if records else "–", None)
    rows.update(brand_figures(records, model["merchant"]))
    return rows


def brand_figures(records, weights):
    """How often the brand index offered a wrong merchant (docs/brands.md): brand candidates (feature `brand`) that
    are not the labeled merchant, of all brand candidates, and the receipts whose merchant, ranked with `weights`, is
    a wrong brand."""
    offered = [c for r in records if r.get("merchant") for c in r["merchant"]["candidates"] if "brand" in c["features"]]
    false = [c for c in offered if not c["correct"]]
    chosen_false = 0
    for record in records:
        candidates = (record.get("merchant") or {}).get("candidates")
        if candidates:
            scores = [sum(weights.get(n, 0) * v for n, v in c["features"].items()) for c in candidates]
            winner = candidates[scores.index(max(scores))]
            chosen_false += "brand" in winner["features"] and not winner["correct"]
    return {
        "brand candidates: false / all": (f"{len(false)} / {len(offered)}", None),
        "winner a false brand": (f"{chosen_false}", None),
    }


def per_hundred(count, receipts):
    """A count per 100 receipts, printed with the count."""
    return (f"{100 * count / receipts:.1f} ({count}/{receipts})" if receipts else "–", None)


def cell(value):
    if value is None:
        return "–"
    if isinstance(value[0], str):
        return value[0]
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
             "accepted: right merchant", "accepted: right date", "accepted: right total", "silent errors per 100",
             "touches per 100"] + [f"budget {budget:g}: touches / silent" for budget in BUDGETS]
    names += ["brand candidates: false / all", "winner a false brand"]
    table = [["field"] + [c[0] for c in columns]] + [[n] + [cell(c[1][n]) for c in columns] for n in names]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for number, row in enumerate(table):
        print("| " + " | ".join(text.ljust(widths[i]) for i, text in enumerate(row)) + " |")
        if number == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def swift_case(name):
    """The Swift enum case of a ranking feature name (`ExtractionFeatures.swift`): `itemsSum` is `.itemsSum`."""
    return "." + name


def swift_trust_case(name):
    """The Swift case of a trust feature name (`TrustFeature`): `own.slogan` is `.own(.slogan)`, `share` is
    `.shared(.share)`."""
    if name.startswith("own."):
        return f".own(.{name[len('own.'):]})"
    return f".shared(.{name})"


def swift_dictionary(weights, indent, case=swift_case):
    if not weights:
        return "[:]"
    pad = " " * indent
    entries = "\n".join(f"{pad}    {case(name)}: {value!r}," for name, value in sorted(weights.items()))
    return "[\n" + entries + f"\n{pad}]"


def swift_trust(trust, indent):
    pad = " " * indent
    return f"""TrustModel(
{pad}    intercept: {trust["intercept"]!r},
{pad}    weights: {swift_dictionary(trust["weights"], indent + 4, swift_trust_case)},
{pad}    threshold: {trust["threshold"]!r})"""


def swift_holds(holds):
    return "[" + ", ".join("." + reason for reason in holds) + "]"


def swift_point(point, indent):
    pad = " " * indent
    return f"""TrustBudgetPoint(
{pad}    maxSilentPer100: {point["maxSilentPer100"]!r}, merchant: {point["merchant"]!r}, date: {point["date"]!r},
{pad}    total: {point["total"]!r}, holds: {swift_holds(point["holds"])},
{pad}    touchesPer100: {point["touchesPer100"]!r}, silentPer100: {point["silentPer100"]!r})"""


def swift_models(models, indent):
    pad = " " * indent
    points = ",\n".join(f"{pad}        {swift_point(point, indent + 8)}" for point in models["budgets"])
    return f"""TrustModels(
{pad}    merchant: {swift_trust(models["merchant"], indent + 4)},
{pad}    date: {swift_trust(models["date"], indent + 4)},
{pad}    total: {swift_trust(models["total"], indent + 4)},
{pad}    holds: {swift_holds(models["holds"])},
{pad}    budgets: [
{points},
{pad}    ])"""


def swift_source(model):
    readers = ",\n".join(f"            {reader}: {swift_models(model['trust'][reader], 12)}" for reader in READERS)
    return f"""// Generated by scripts/fit-extraction from the fit in scripts/fit_extraction/model.json; do not edit (rerun it).

extension ExtractionModel {{
    /// The committed fit: candidate weights and the calibrated trust models (docs/extraction-fitting.md).
    public static let fitted = ExtractionModel(
        total: {swift_dictionary(model["total"], 8)},
        merchant: {swift_dictionary(model["merchant"], 8)},
        date: {swift_dictionary(model["date"], 8)},
        trust: TrustCalibrations(
{readers}))
}}
"""


def command_report(arguments):
    with open(arguments.model) as handle:
        model = json.load(handle)
    sets = {"train": load(arguments.train or []), "dev": load(arguments.dev or []),
            "synthetic": load(arguments.synthetic or [])}
    report({split: records for split, records in sets.items() if records}, model)
    false_brands(sets["train"])


def false_brands(records):
    """Names the brands most often offered wrongly on train, with how often (docs/brands.md)."""
    counts = {}
    for record in records:
        for candidate in (record.get("merchant") or {}).get("candidates", []):
            if "brand" in candidate["features"] and not candidate["correct"]:
                counts[candidate["value"]] = counts.get(candidate["value"], 0) + 1
    if counts:
        common = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:25]
        print("false brand candidates on train, most often first: "
              + ", ".join(f"{name} ×{count}" for name, count in common))


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
    accept.add_argument("--readers", nargs="+", choices=READERS,
                        help="refit only these readers' trust models (default: all)")
    accept.add_argument("--keep-trust-from", help="a model JSON whose trust models the readers not refitted keep")
    accept.add_argument("--partitions", type=int, default=1,
                        help="also print the default budget's out-of-fold point on this many dealings of the train"
                             " receipts into folds, and pooled (what is fitted does not change)")
    show = commands.add_parser("report")
    show.add_argument("--train", nargs="+")
    show.add_argument("--dev", nargs="+")
    show.add_argument("--synthetic", nargs="+", help="generated receipts, reported on their own")
    show.add_argument("--model", required=True)
    arguments = parser.parse_args()
    {"rank": command_rank, "accept": command_accept, "report": command_report}[arguments.command](arguments)


if __name__ == "__main__":
    main()
