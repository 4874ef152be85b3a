#!/usr/bin/env python3
"""fgrtbench external adapter: wittgenstein's RIPPER.

Spec:   command: python3 examples/external/ripper_wittgenstein.py {dir}
Every parameter of the method goes to wittgenstein.RIPPER (k, prune_size,
dl_allowance, n_discretize_bins, max_rules, ...); random_state is the
unit's seed unless a parameter sets it. RIPPER learns one class against
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


def fit_predict(unit):
    params = dict(unit.params)
    params.setdefault("random_state", unit.seed32())
    train = pd.DataFrame(unit.category_names(unit.X_train), columns=unit.features)
    test = pd.DataFrame(unit.category_names(unit.X_test), columns=unit.features)
    present = [c for c in unit.classes if c in set(unit.y_train)]
    if len(present) == 1:  # nothing to learn: the constant class, no rule
        note = "# the training set held one class: every row is predicted class %s\n" % present[0]
        return fa.Result([present[0]] * len(test), 0.0, {"rules": 0, "antecedents": 0, "leaves": 0, "internal_nodes": 0}, note)
    positives = present[1:] if len(present) == 2 else present
    models, lines, antecedents = {}, [], 0
    with fa.Timer() as timer:
        for cls in positives:
            model = lw.RIPPER(**params)
            model.fit(train, y=[label == cls for label in unit.y_train], pos_class=True)
            models[cls] = model
    for cls in positives:
        ls, a = ruleset_lines(models[cls], cls)
        lines += ls
        antecedents += a
    if len(present) == 2:
        hits = models[present[1]].predict(test)
        predictions = [present[1] if hit else present[0] for hit in hits]
    else:
        probs = {cls: [p[1] for p in models[cls].predict_proba(test)] for cls in positives}
        predictions = [max(positives, key=lambda c: probs[c][i]) for i in range(len(test))]
    complexity = {"rules": len(lines), "antecedents": antecedents, "leaves": len(lines), "internal_nodes": 0}
    return fa.Result(predictions, timer.seconds, complexity, "\n".join(lines) + "\n")


if __name__ == "__main__":
    fa.run(fit_predict)
