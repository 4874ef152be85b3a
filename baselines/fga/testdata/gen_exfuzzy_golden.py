# Generates exfuzzy_slowpath.json, the reference for golden_test.go.
#
# Run against ex-fuzzy at commit c0ffdcf (paper era, slow-path fitness), with
# numpy, pandas and scikit-learn installed and pymoo/matplotlib replaced by
# empty stand-ins (only FitRuleBase's decoding and fitness are called, never
# the optimiser):
#
#   PYTHONPATH=<stubs>:<ex-fuzzy>/ex_fuzzy/ex_fuzzy python3 gen_exfuzzy_golden.py exfuzzy_slowpath.json
#
# exfuzzy_head_slowpath.json is the same run against ex-fuzzy 96f0cf2 with
# prob._evaluate(g, out) replaced by prob._evaluate_slow(g, out) (HEAD's
# _evaluate takes the fast path, section 2.9 of baselines.md).
#
# where <stubs> holds pymoo/core/problem.py (a Problem class keeping xl, xu),
# pymoo/core/variable.py (Integer), empty GA/minimize/operator classes and an
# empty matplotlib/pyplot.py.
import json, sys
import numpy as np
import evolutionary_fit as ef
import eval_rules as evr
import fuzzy_sets as fs

rs = np.random.RandomState(7)
n, d = 90, 4
y = np.repeat([0, 1, 2], 30)
X = np.zeros((n, d))
X[:, 0] = rs.normal(y * 1.0, 1.0)                 # continuous, class-shifted
X[:, 1] = rs.randint(0, 2, n)                     # binary (vertical shoulder at min)
X[:, 2] = rs.randint(0, 6, n) + (y == 2) * 2      # integers with ties
X[:, 3] = np.round(rs.exponential(1.0 + y, n), 2) # skewed
Xt = np.vstack([X[:10] + 0.37, rs.uniform(-3, 10, (15, d))])
K = 60
prob = ef.FitRuleBase(X, y, nRules=15, nAnts=3, n_classes=3, tolerance=0.01)
xl, xu = prob.xl.astype(int), prob.xu.astype(int)
nv = len(xl)
cases = []
for k in range(K):
    g = np.array([rs.randint(xl[j], xu[j] + 1) for j in range(nv)])
    if k % 3 == 1:   # fewer don't-cares and disabled rules
        lab = slice(15 * 3, 2 * 15 * 3)
        g[lab] = np.maximum(g[lab], 0)
        g[-15:] = np.maximum(g[-15:], 0)
    if k % 10 == 9:  # a feature whose MF genes are all zero but the first
        mf0 = 2 * 15 * 3 + 1 * 11
        g[mf0 + 1: mf0 + 11] = 0
    out = {}
    prob._evaluate(g, out)
    F = float(out["F"])
    rb = prob._construct_ruleBase(g, fs.FUZZY_SETS.t1)
    preds, predt, ds = [], [], []
    if len(rb.get_rules()) > 0:
        ev = evr.evalRuleBase(rb, X, y)
        ev.add_full_evaluation()
        rb.purge_rules(0.01)
        if len(rb.get_rules()) > 0:
            ev.add_full_evaluation()
            ds = [None if np.isnan(r.score) else float(r.score) for r in rb.get_rules()]
        preds = [int(v) for v in rb.winning_rule_predict(X)]
        predt = [int(v) for v in rb.winning_rule_predict(Xt)]
    else:
        preds = [-1] * n
        predt = [-1] * len(Xt)
    cases.append({"genes": [int(v) for v in g], "F": F, "train_pred": preds, "test_pred": predt, "ds": ds})
json.dump({"source": "ex-fuzzy c0ffdcf FitRuleBase._evaluate (slow path) and fit's final purge, nRules=15 nAnts=3 L=3 tolerance=0.01",
           "X": X.tolist(), "y": [int(v) for v in y], "X_test": Xt.tolist(), "cases": cases}, open(sys.argv[1], "w"))
print("cases", len(cases), "F:", sorted(round(c["F"], 3) for c in cases)[:20])
