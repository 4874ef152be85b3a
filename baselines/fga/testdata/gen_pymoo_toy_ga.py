# Mean best F per generation of pymoo 0.6.1.6 GA on the toy problem of
# toy_test.go (usage: python3 gen_pymoo_toy_ga.py 200, pymoo source on PYTHONPATH).
import numpy as np, json, sys
from pymoo.core.problem import ElementwiseProblem
from pymoo.algorithms.soo.nonconvex.ga import GA
from pymoo.operators.repair.rounding import RoundingRepair
from pymoo.operators.sampling.rnd import IntegerRandomSampling
from pymoo.operators.crossover.sbx import SBX
from pymoo.operators.mutation.pm import PolynomialMutation
lo = np.array([0]*20 + [-1]*10); hi = np.array([99]*20 + [2]*10)
target = np.array([37]*20 + [1]*10)
class P(ElementwiseProblem):
    def __init__(self): super().__init__(n_var=30, n_obj=1, xl=lo, xu=hi, vtype=int)
    def _evaluate(self, x, out, *a, **k): out["F"] = float(np.sum(np.abs(x - target)))
curves = []
for seed in range(int(sys.argv[1])):
    alg = GA(pop_size=50, sampling=IntegerRandomSampling(), crossover=SBX(prob=0.3, eta=3.0, repair=RoundingRepair()),
             mutation=PolynomialMutation(eta=7.0, repair=RoundingRepair()), eliminate_duplicates=False)
    alg.setup(P(), seed=seed, termination=('n_gen', 100))
    c = []
    for g in range(100):
        alg.next(); c.append(float(alg.pop.get('F').min()))
    curves.append(c)
m = np.mean(curves, axis=0)
print(json.dumps({k: round(float(m[k-1]), 2) for k in [1, 5, 10, 25, 50, 100]}))
