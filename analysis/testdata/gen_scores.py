#!/usr/bin/python3
"""Reference values of AUC and log-loss from scikit-learn, for scores_test.go.

Run from this directory: /usr/bin/python3 gen_scores.py > scores.json
It writes cases of test-row scores (one column per class) and true class
indices, with scikit-learn's values:

  auc_macro      mean over classes k of roc_auc_score(y == k, s[:, k]),
                 classes without positives or negatives left out; for
                 rows that are probabilities this equals
                 roc_auc_score(y, s, multi_class="ovr", average="macro"),
                 checked here (auc_sklearn_ovr).
  log_loss       log_loss(y, s, labels=range(K)) with eps="auto" (clip to
                 [eps, 1-eps], eps = float64 machine epsilon, then rows
                 renormalised).

Scores are rounded to few digits so that ties occur.
"""
import json
import warnings

import numpy as np
import sklearn
from sklearn.metrics import log_loss, roc_auc_score

warnings.simplefilter("ignore")


def case(name, s, y, k):
    s = np.asarray(s, dtype=float)
    y = np.asarray(y, dtype=int)
    aucs = []
    for c in range(k):
        pos = y == c
        if pos.all() or not pos.any():
            continue
        aucs.append(roc_auc_score(pos, s[:, c]))
    out = {
        "name": name,
        "classes": k,
        "scores": s.tolist(),
        "truth": y.tolist(),
        "auc_macro": float(np.mean(aucs)),
        "log_loss": float(log_loss(y, s, labels=list(range(k)), eps="auto")),
    }
    if np.allclose(s.sum(axis=1), 1) and len(aucs) == k:
        if k == 2:
            out["auc_sklearn_ovr"] = float(roc_auc_score(y, s[:, 1]))
        else:
            out["auc_sklearn_ovr"] = float(roc_auc_score(y, s, multi_class="ovr", average="macro"))
    return out


def main():
    rng = np.random.default_rng(20261123)
    cases = []
    # Binary probabilities with ties.
    n = 40
    p = np.round(rng.random(n), 1)
    y = (rng.random(n) < 0.3 + 0.4 * p).astype(int)
    cases.append(case("binary probabilities, ties", np.column_stack([1 - p, p]), y, 2))
    # Three-class probabilities (a Dirichlet draw), rounded (ties).
    n = 60
    y = rng.integers(0, 3, n)
    a = np.ones((n, 3)) + 2 * np.eye(3)[y] * (rng.random(n) < 0.7)[:, None]
    p = rng.dirichlet([1, 1, 1], n) * 0 + np.array([rng.dirichlet(r) for r in a])
    p = np.round(p, 2)
    p[:, 2] = 1 - p[:, 0] - p[:, 1]
    p = np.clip(p, 0, 1)
    p = p / p.sum(axis=1, keepdims=True)
    cases.append(case("three-class probabilities, ties", p, y, 3))
    # Firing strengths: in [0, 1], not summing to 1, with zeros (clipped
    # by eps) and a row of all zeros.
    n = 30
    y = rng.integers(0, 4, n)
    f = np.round(rng.random((n, 4)) ** 2, 1)
    f[np.arange(n), y] = np.maximum(f[np.arange(n), y], np.round(rng.random(n), 1))
    f[3] = 0
    f[5, y[5]] = 0
    cases.append(case("four-class firing strengths, zeros", f, y, 4))
    # A class absent from the truth (left out of the macro AUC).
    n = 20
    y = rng.integers(0, 2, n)
    s = np.round(rng.random((n, 3)), 1)
    cases.append(case("class absent from the truth", s, y, 3))
    # Perfect and reversed rankings.
    cases.append(case("perfect", [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.1, 0.9]], [0, 0, 1, 1], 2))
    cases.append(case("reversed", [[0.1, 0.9], [0.2, 0.8], [0.7, 0.3], [0.9, 0.1]], [0, 0, 1, 1], 2))
    print(json.dumps({"sklearn": sklearn.__version__, "eps": float(np.finfo(float).eps), "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
