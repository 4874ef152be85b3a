#!/usr/bin/env python3
"""fgrtbench external adapter: scikit-learn's DecisionTreeClassifier.

Spec:   command: python3 sklearn_tree.py {dir}     (relative to the spec)
        mode: worker
Every parameter of the method goes to DecisionTreeClassifier unchanged
(params.json gives numbers as numbers, "null" as None); random_state is
the job's seed unless a parameter sets it. Nominal columns arrive as
category codes and are used as numbers, as the harness's own CART does.
"""

from sklearn.tree import DecisionTreeClassifier

import fgrtbench_adapter as fa


def rules_of(tree, features):
    """One "IF ... THEN class ..." line per leaf, conditions from the root."""
    t = tree.tree_
    lines, leaves, antecedents = [], 0, 0

    def walk(node, conds):
        nonlocal leaves, antecedents
        if t.children_left[node] == -1:
            cls = tree.classes_[t.value[node][0].argmax()]
            lines.append("IF %s THEN class %s" % (" AND ".join(conds) or "TRUE", cls))
            leaves += 1
            antecedents += len(conds)
            return
        name, thr = features[t.feature[node]], t.threshold[node]
        walk(t.children_left[node], conds + ["%s <= %.6g" % (name, thr)])
        walk(t.children_right[node], conds + ["%s > %.6g" % (name, thr)])

    walk(0, [])
    complexity = {"rules": leaves, "antecedents": antecedents, "leaves": leaves,
                  "internal_nodes": t.node_count - leaves}
    return "\n".join(lines) + "\n", complexity


def fit_predict(train, test, params, seed):
    params = dict(params)
    params.setdefault("random_state", fa.seed32(seed))
    tree = DecisionTreeClassifier(**params)
    with fa.Timer() as timer:
        tree.fit(train.X, train.y)
    rules, complexity = rules_of(tree, train.features)
    return tree.predict(test.X), {"fit_seconds": timer.seconds, "complexity": complexity, "rules": rules}


if __name__ == "__main__":
    fa.run(fit_predict)
