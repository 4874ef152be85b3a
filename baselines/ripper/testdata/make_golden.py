"""Regenerate the wittgenstein golden files of this directory.

Needs wittgenstein v0.3.5 (imoscovitz/wittgenstein c0708a5) on sys.path,
pandas 1.5, numpy and scikit-learn 1.2.1 (Debian bookworm packages). Run from
this directory: python3 make_golden.py /path/to/wittgenstein-checkout

The grow/prune splits are fixed (rows in index order, no shuffle) so that the
Go port's Config.Unshuffled run must reproduce the rule sets and predictions
exactly. Output per dataset <name>.csv: <name>.golden with one line per rule,
"class<TAB>cond;cond" (conditions sorted), and a final PRED line with the
predictions on the training rows.
"""
import sys, warnings
sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else '.')
warnings.filterwarnings('ignore')
import numpy as np, pandas as pd
import wittgenstein as lw
from wittgenstein import base_functions as bf
from sklearn.multiclass import OneVsRestClassifier


def fixed_split(to_split, split_size, res_type=set, random_state=None):
    rows = sorted(to_split)
    at = int(len(rows) * split_size)
    return res_type(rows[:at]), res_type(rows[at:])


bf.random_split = fixed_split
bf.set_shuffled_split = lambda s, size, random_state=None: fixed_split(s, size, set)


def norm(v):
    s = str(v).replace(' - ', '-')
    try:
        f = float(s)
    except ValueError:
        return s
    if f != f:
        return 'nan'
    return str(int(f)) if f.is_integer() else repr(f)


def make_data():
    rng = np.random.default_rng(20261121)
    n = 240
    x1 = np.round(rng.normal(0, 1, n), 3)
    x2 = np.round(rng.uniform(-5, 5, n), 2)
    x3 = rng.integers(0, 6, n)
    g = rng.choice(['red', 'green', 'blue'], n)
    score = x1 + 0.3 * x2 + (g == 'red') * 1.2 + rng.normal(0, 0.6, n)
    cls = np.where(score > 1.0, 2, np.where(score > -0.5, 1, 0))
    pd.DataFrame({'x1': x1, 'x2': x2, 'x3': x3, 'g': g, 'Class': cls}).to_csv('threeclass.csv', index=False)

    n = 150
    a = np.round(rng.gamma(2, 3, n), 2)
    b = np.round(rng.normal(50, 10, n), 1)
    k = np.full(n, 7)
    cls = ((a > 6) & (b > 45)) | (rng.random(n) < 0.1)
    a[rng.random(n) < 0.08] = np.nan
    pd.DataFrame({'a': a, 'b': b, 'k': k, 'Class': cls.astype(int)}).to_csv('binary.csv', index=False)


def golden(name):
    df = pd.read_csv(f'{name}.csv')
    y = df.pop('Class').values
    m = OneVsRestClassifier(lw.RIPPER()).fit(df, y)
    pos = [m.classes_[1]] if len(m.classes_) == 2 else list(m.classes_)
    lines = []
    for cls, e in zip(pos, m.estimators_):
        for r in e.ruleset_.rules:
            conds = sorted(f'{c.feature}={norm(c.val)}' for c in r.conds) or ['TRUE']
            lines.append(f'{cls}\t{";".join(conds)}')
    lines.sort()
    lines.append('PRED\t' + ' '.join(str(p) for p in m.predict(df)))
    open(f'{name}.golden', 'w').write('\n'.join(lines) + '\n')


make_data()
golden('threeclass')
golden('binary')
