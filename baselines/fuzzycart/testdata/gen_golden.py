#!/usr/bin/env python3
"""Golden vectors for baselines/fuzzycart from Ex-Fuzzy's own FuzzyCART.

Usage:
  gen_golden.py --exfuzzy DIR [--inputs DIR] --out FILE

--exfuzzy is the directory holding Ex-Fuzzy's modules (ex_fuzzy/ex_fuzzy
of a checkout of Fuminides/ex-fuzzy at commit 96f0cf2d, version 2.1.5);
nothing of it is copied here. Its package __init__ imports pymoo, which
FuzzyCART does not use, so the modules are imported directly with pymoo
replaced by an empty stand-in.

Without --inputs the script writes the synthetic vectors (data made here,
seeded, embedded in the output). With --inputs it reads the fold matrices
that `go test ./baselines/fuzzycart -run TestExportKEELInputs -export DIR`
writes (the clean protocol's scaled folds, exactly as the learner sees
them) and writes only the reference's outputs, not the data.
"""
import argparse
import glob
import importlib.abc
import importlib.machinery
import json
import os
import sys
import time
import types

import numpy as np


class _Stub(types.ModuleType):
    """A module whose every attribute is a harmless class."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return type(name, (), {'__init__': lambda self, *a, **k: None})


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname == 'pymoo' or fullname.startswith('pymoo.'):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _Stub(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def load_exfuzzy(path):
    sys.meta_path.insert(0, _StubFinder())
    sys.path.insert(0, path)
    import fuzzy_sets
    import tree_learning
    import utils
    return fuzzy_sets, utils, tree_learning


TIMES = []


# Harness parameter names -> FuzzyCART constructor arguments.
def ctor_args(cfg):
    a = {}
    if 'max_rules' in cfg:
        a['max_rules'] = int(cfg['max_rules'])
    if 'max_depth' in cfg:
        a['max_depth'] = int(cfg['max_depth'])
    for k in ('coverage_threshold', 'min_improvement', 'ccp_alpha'):
        if k in cfg:
            a[k] = float(cfg[k])
    if 'target_metric' in cfg:
        a['target_metric'] = cfg['target_metric']
    if 'sample_for_splits' in cfg:
        a['sample_for_splits'] = {'auto': None, 'true': True, 'false': False}[cfg['sample_for_splits']]
    if 'sample_size' in cfg:
        a['sample_size'] = int(cfg['sample_size'])
    return a


CONFIGS = [
    {},
    {'target_metric': 'purity'},
    {'ccp_alpha': '0.01'},
    {'ccp_alpha': '0.01', 'apply_ccp_alpha': 'true'},
    {'ccp_alpha': '0', 'apply_ccp_alpha': 'true', 'target_metric': 'purity'},
    {'max_depth': '2'},
    {'max_rules': '20', 'min_improvement': '0', 'patience': '5'},
    {'max_rules': '15', 'coverage_threshold': '0.05'},
    {'max_rules': '15', 'coverage_threshold': '0.05', 'target_metric': 'purity'},
]


def run(fs, utils, tl, Xtr, ytr, Xte, nominal, cfg, seed):
    mask = list(nominal) if any(nominal) else None
    parts = utils.construct_partitions(Xtr, fs.FUZZY_SETS.t1, categorical_mask=mask, n_partitions=3)
    np.random.seed(seed)
    clf = tl.FuzzyCART(parts, **ctor_args(cfg))
    t0 = time.perf_counter()
    clf.fit(Xtr, ytr, patience=int(cfg.get('patience', 3)))
    if cfg.get('apply_ccp_alpha') == 'true':
        clf.cost_complexity_pruning(Xtr, ytr)
    TIMES.append({'config': cfg, 'rows': len(ytr), 'fit_seconds': time.perf_counter() - t0})
    out = {
        'config': cfg,
        'seed': seed,
        'nodes': [[name, int(nd['prediction'])] for name, nd in clf.node_dict_access.items()],
        'cached': None,
    }
    if hasattr(clf, '_cached_all_nodes'):
        out['cached'] = [[e['name'], int(e['prediction'])] for e in clf._cached_all_nodes]
    stats = clf.get_tree_stats()
    out['leaves'], out['internal'] = int(stats['leaves']), int(stats['internal'])
    out['train_pred'] = [int(v) for v in clf.predict(Xtr)]
    out['test_pred'] = [int(v) for v in clf.predict(Xte)]
    out['test_proba'] = [[float(v) for v in row] for row in clf.predict_proba(Xte)]
    out['classes'] = [int(c) for c in clf.classes_]
    return out


def synthetic():
    """Small data sets of our own, with the ties and shapes that matter."""
    rng = np.random.RandomState(20260629)
    cases = []
    # Two classes, coarse values (many equal quantiles, ties).
    n = 120
    X = np.round(rng.normal(size=(n, 4)) * 2) / 2
    y = ((X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=n)) > 0).astype(int)
    cases.append(('coarse2', X, y, [False] * 4))
    # Three classes, a nominal column (codes 0..3), a constant column.
    n = 150
    X = rng.uniform(size=(n, 4))
    X[:, 2] = rng.randint(0, 4, size=n)
    X[:, 3] = 1.5
    y = np.where(X[:, 0] > 0.6, 2, np.where(X[:, 2] >= 2, 1, 0))
    flip = rng.uniform(size=n) < 0.15
    y[flip] = rng.randint(0, 3, size=flip.sum())
    cases.append(('nominal3', X, y, [False, False, True, False]))
    # Four classes, continuous, a class absent from one part.
    n = 240
    X = rng.normal(size=(n, 5))
    score = X[:, 0] + X[:, 1] * X[:, 2]
    y = np.digitize(score, [-1.0, 0.0, 1.0])
    cases.append(('cont4', X, y, [False] * 5))
    out = []
    for name, X, y, nominal in cases:
        idx = np.arange(len(y))
        test = idx % 4 == 0
        Xtr, ytr, Xte = X[~test], y[~test], X[test]
        cfgs = CONFIGS + [
            {'sample_for_splits': 'true', 'sample_size': '40'},
            {'sample_for_splits': 'true', 'sample_size': '40', 'target_metric': 'purity'},
        ]
        case = {'name': name, 'nominal': nominal,
                'x_train': Xtr.tolist(), 'y_train': ytr.tolist(), 'x_test': Xte.tolist(), 'runs': []}
        for cfg in cfgs:
            case['runs'].append(run(*EXF, Xtr, ytr, Xte, nominal, cfg, 7))
        out.append(case)
    return out


def keel(inputs, only, nconfigs):
    out = []
    for path in sorted(glob.glob(os.path.join(inputs, '*.json'))):
        with open(path) as f:
            d = json.load(f)
        if only and d['dataset'] not in only:
            continue
        Xtr = np.array(d['x_train'], dtype=float)
        ytr = np.array(d['y_train'], dtype=int)
        Xte = np.array(d['x_test'], dtype=float)
        case = {'name': d['name'], 'dataset': d['dataset'], 'fold': d['fold'], 'runs': []}
        for cfg in d['configs'][:nconfigs]:
            case['runs'].append(run(*EXF, Xtr, ytr, Xte, d['nominal'], cfg, 0))
            TIMES[-1]['name'] = d['name']
        out.append(case)
        print(d['name'], file=sys.stderr)
    return out


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--exfuzzy', required=True)
    ap.add_argument('--inputs')
    ap.add_argument('--datasets', help='comma-separated: only these datasets of --inputs')
    ap.add_argument('--configs', type=int, help='only the first N configurations of each fold')
    ap.add_argument('--out', required=True)
    ap.add_argument('--times', help='also write each fit\'s wall time (fit + pruning) here')
    a = ap.parse_args()
    EXF = load_exfuzzy(a.exfuzzy)
    only = set(a.datasets.split(',')) if a.datasets else None
    cases = keel(a.inputs, only, a.configs) if a.inputs else synthetic()
    doc = {'reference': 'Fuminides/ex-fuzzy@96f0cf2d3fa177cfcb052da2644fbab5336e71ce (2.1.5) tree_learning.FuzzyCART',
           'numpy': np.__version__, 'cases': cases}
    with open(a.out, 'w') as f:
        json.dump(doc, f, separators=(',', ':'))
        f.write('\n')
    if a.times:
        with open(a.times, 'w') as f:
            json.dump(TIMES, f, indent=1)
