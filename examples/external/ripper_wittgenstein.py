#!/usr/bin/env python3
"""fgrtbench external adapter: wittgenstein's RIPPER.

Spec:   command: python3 ripper_wittgenstein.py {dir}     (relative to the spec)
        mode: worker
Every parameter of the method goes to wittgenstein.RIPPER (k, prune_size,
dl_allowance, n_discretize_bins, max_rules, ...); random_state is the
job's seed unless a parameter sets it. RIPPER learns one class against
the rest: with two classes the second (in schema order) is the positive
class, as scikit-learn's one-vs-rest does; with more, one ruleset per
class and the class of highest probability wins. Nominal columns are
passed as category names, so wittgenstein treats them as categorical.
"""

import pandas as pd
import wittgenstein as lw

import fgrtbench_adapter as fa


def ruleset_lines(model, cls):
    lines, antecedents = [], 0
    for rule in model.ruleset_.rules:
        conds = [str(c) for c in rule.conds]
        lines.append("IF %s THEN class %s" % (" AND ".join(conds) or "TRUE", cls))
        antecedents += len(conds)
    return lines, antecedents


def fit_predict(train, test, params, seed):
    params = dict(params)
    params.setdefault("random_state", fa.seed32(seed))
    X_train = pd.DataFrame(train.category_names(), columns=train.features)
    X_test = pd.DataFrame(test.category_names(), columns=test.features)
    present = [c for c in train.classes if c in set(train.y)]
    if len(present) == 1:  # nothing to learn: the constant class, no rule
        note = "# the training set held one class: every row is predicted class %s\n" % present[0]
        zero = {"rules": 0, "antecedents": 0, "leaves": 0, "internal_nodes": 0}
        return [present[0]] * len(X_test), {"fit_seconds": 0.0, "complexity": zero, "rules": note}
    positives = present[1:] if len(present) == 2 else present
    models, lines, antecedents = {}, [], 0
    with fa.Timer() as timer:
        for cls in positives:
            model = lw.RIPPER(**params)
            model.fit(X_train, y=[label == cls for label in train.y], pos_class=True)
            models[cls] = model
    for cls in positives:
        ls, a = ruleset_lines(models[cls], cls)
        lines += ls
        antecedents += a
    if len(present) == 2:
        hits = models[present[1]].predict(X_test)
        predictions = [present[1] if hit else present[0] for hit in hits]
    else:
        probs = {cls: [p[1] for p in models[cls].predict_proba(X_test)] for cls in positives}
        predictions = [max(positives, key=lambda c: probs[c][i]) for i in range(len(X_test))]
    complexity = {"rules": len(lines), "antecedents": antecedents, "leaves": len(lines), "internal_nodes": 0}
    return predictions, {"fit_seconds": timer.seconds, "complexity": complexity, "rules": "\n".join(lines) + "\n"}


if __name__ == "__main__":
    fa.run(fit_predict)
