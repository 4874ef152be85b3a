# Generates pymoo_operators.json, the reference for the SBX and polynomial
# mutation formula tests: pymoo 0.6.1.6's cross_sbx and mut_pm evaluated on
# one variable at a time with the uniform draws fed in by a scripted
# random_state. Run with pymoo 0.6.1.6's source and numpy on PYTHONPATH.
import json, sys
import numpy as np
from pymoo.operators.crossover.sbx import cross_sbx
from pymoo.operators.mutation.pm import mut_pm

class Scripted:
    def __init__(self, values): self.values = list(values)
    def random(self, size=None):
        shape = size if isinstance(size, tuple) else ((size,) if size is not None else ())
        n = int(np.prod(shape)) if shape else 1
        out = np.array([self.values.pop(0) for _ in range(n)], dtype=float)
        return out.reshape(shape) if shape else out[0]

rs = np.random.RandomState(11)
sbx, pm = [], []
for k in range(400):
    lo = float(rs.randint(-1, 3)); hi = lo + float(rs.randint(1, 100))
    x1 = float(rs.randint(lo, hi + 1)); x2 = float(rs.randint(lo, hi + 1))
    if x1 == x2:
        continue
    eta = [3.0, 7.0, 15.0, 0.7 + 20 * rs.rand()][k % 4]
    u, e = rs.rand(), rs.rand()
    if k % 17 == 0: u = 0.5
    X = np.array([[[x1]], [[x2]]])
    Q = cross_sbx(X, np.array([lo]), np.array([hi]), np.full((1, 1), eta), np.full((1, 1), 0.5), np.full((1, 1), 0.5),
                  random_state=Scripted([0.0, u, e]))
    sbx.append({"x1": x1, "x2": x2, "lo": lo, "hi": hi, "eta": eta, "u": u, "exch": bool(e < 0.5),
                "c1": float(Q[0, 0, 0]), "c2": float(Q[1, 0, 0])})
for k in range(400):
    lo = float(rs.randint(-1, 3)); hi = lo + float(rs.randint(1, 100))
    x = float(rs.randint(lo, hi + 1))
    eta = [7.0, 3.0, 20.0, 0.7 + 20 * rs.rand()][k % 4]
    u = rs.rand()
    if k % 13 == 0: u = [0.0, 0.5, 0.999999999][k // 13 % 3]
    Y = mut_pm(np.array([[x]]), np.array([lo]), np.array([hi]), np.array([eta]), np.array([1.0]), False,
               random_state=Scripted([0.0, u]))
    pm.append({"x": x, "lo": lo, "hi": hi, "eta": eta, "u": u, "y": float(Y[0, 0])})
json.dump({"source": "pymoo 0.6.1.6 cross_sbx / mut_pm with scripted draws", "sbx": sbx, "pm": pm}, open(sys.argv[1], "w"))
print(len(sbx), len(pm))
