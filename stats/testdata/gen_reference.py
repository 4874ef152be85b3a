#!/usr/bin/env python3
"""Generate reference.json: independent reference values for package stats.

Run with Debian's python3-scipy / python3-numpy:

    /usr/bin/python3 stats/testdata/gen_reference.py > stats/testdata/reference.json

The Go tests only read the JSON; Python is not needed to run them. Each
section uses scipy's own implementation where one exists (studentized range,
F, t, Friedman, Wilcoxon) and a direct numpy transcription of the published
procedure otherwise (Bayesian signed-rank test, Benavoli et al. JMLR 2017).
"""
import json
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

SEED = 20261123


def studentized_range():
    cdf = []
    for q, k, df in [(3.5, 4, 1), (3.5, 4, 2), (3.5, 4, 5), (3.5, 4, 10), (3.5, 4, 100),
                     (3.5, 4, np.inf), (1.0, 2, np.inf), (2.0, 3, 20), (4.0, 10, np.inf),
                     (5.5, 20, 30), (6.0, 50, np.inf), (0.5, 5, 3), (8.0, 3, 2)]:
        cdf.append({"q": q, "k": k, "df": None if np.isinf(df) else df,
                    "p": float(stats.studentized_range.cdf(q, k, df))})
    ppf = []
    for p, k, df in [(0.95, 3, 10), (0.90, 5, 20), (0.99, 4, 60), (0.95, 12, 5)]:
        ppf.append({"p": p, "k": k, "df": df, "q": float(stats.studentized_range.ppf(p, k, df))})
    nemenyi = []
    for alpha in (0.01, 0.05, 0.10):
        for k in list(range(2, 21)) + [25, 30, 40, 50]:
            q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
            nemenyi.append({"alpha": alpha, "k": k, "q": float(q)})
    return {"cdf": cdf, "quantile": ppf, "nemenyi_q": nemenyi}


def friedman(rng):
    out = []
    shapes = [(5, 3), (10, 4), (14, 8), (20, 13), (6, 12)]
    for n, k in shapes:
        m = rng.normal(0.8, 0.05, size=(n, k))
        # Round to 2 decimals so rows contain ties, as accuracies often do.
        m = np.round(m, 2)
        ranks = np.array([stats.rankdata(-row) for row in m])  # 1 = best
        avg = ranks.mean(axis=0)
        chi = 12 * n / (k * (k + 1)) * (np.sum(avg ** 2) - k * (k + 1) ** 2 / 4)
        ff = (n - 1) * chi / (n * (k - 1) - chi)
        df1, df2 = k - 1, (k - 1) * (n - 1)
        chi_tc, p_tc = stats.friedmanchisquare(*m.T)
        out.append({
            "matrix": m.tolist(), "avg_ranks": avg.tolist(),
            "chi2": float(chi), "p_chi2": float(stats.chi2.sf(chi, k - 1)),
            "chi2_tie_corrected": float(chi_tc), "p_tie_corrected": float(p_tc),
            "iman_davenport": float(ff), "df1": df1, "df2": df2,
            "p_iman_davenport": float(stats.f.sf(ff, df1, df2)),
        })
    return out


def wilcoxon(rng):
    out = []
    cases = [
        ("exact", np.round(rng.normal(0.01, 0.03, 10), 6)),
        ("exact", np.round(rng.normal(0.0, 0.03, 20), 6)),
        # 60 differences: above 50, where method="auto" (and the Go code)
        # leave the exact distribution. The last 20 come from their own
        # generator so that the draws of every later section stay as they were.
        ("approx", np.round(np.concatenate([rng.normal(0.01, 0.03, 40),
                                            np.random.default_rng(SEED + 1).normal(0.01, 0.03, 20)]), 6)),
        ("approx", np.round(rng.normal(0.0, 0.02, 15), 2)),  # tied magnitudes
    ]
    for mode, d in cases:
        res = stats.wilcoxon(d, zero_method="wilcox", correction=(mode == "approx"), mode=mode)
        out.append({"diffs": d.tolist(), "exact": mode == "exact",
                    "statistic": float(res.statistic), "p": float(res.pvalue)})
    return out


def wilcoxon_zero():
    """The zero-difference conventions, pinned to the scipy call each one
    follows (stats.WilcoxonZero): "wilcox" drops the zeros and is exact
    over the rest when at most 50 remain and no magnitudes tie, otherwise
    the normal approximation with continuity correction; "pratt" and
    "zsplit" rank the zeros and, with zeros present, have only the normal
    approximation. scipy_default_p is scipy.stats.wilcoxon(d) with its
    defaults, which the Go code does not follow where there are zeros."""
    rng = np.random.default_rng(SEED + 2)
    cases = [
        # Six non-zero differences and four zeros over ten datasets: exact
        # p = 0.5625 over the non-zero ones, scipy's defaults 0.463, the
        # situation of FGRT against FGRT* in the paper's clean study.
        [0.0, 0.0, 0.0, 0.0, -0.001, 0.002, 0.004, 0.005, 0.007, -0.009],
        [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, -0.06, 0.07],
        [0.0, 0.0, 0.0, 0.01, -0.01, 0.02, 0.02, -0.03, 0.04, 0.05, 0.06, -0.07],
        np.round(rng.normal(0.005, 0.02, 30), 2).tolist(),
        np.round(rng.normal(0.0, 0.02, 70), 3).tolist(),
        [0.01, 0.02, -0.03, 0.04, 0.05, 0.06],
    ]
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for d in cases:
            d = np.asarray(d)
            nz = d[d != 0]
            rk = stats.rankdata(np.abs(nz))
            ties = len(np.unique(rk)) < len(rk)
            exact = len(nz) <= 50 and not ties
            w = stats.wilcoxon(nz, method="exact" if exact else "approx", correction=not exact)
            case = {"diffs": d.tolist(), "scipy_default_p": float(stats.wilcoxon(d).pvalue),
                    "wilcox": {"exact": bool(exact), "statistic": float(w.statistic), "p": float(w.pvalue)}}
            for zm in ("pratt", "zsplit"):
                if np.any(d == 0):
                    r = stats.wilcoxon(d, zero_method=zm, method="approx", correction=True)
                    case[zm] = {"exact": False, "statistic": float(r.statistic), "p": float(r.pvalue)}
                else:
                    case[zm] = case["wilcox"]
            out.append(case)
    return out


def friedman_exact():
    """The exact permutation distribution of Friedman's statistic: every
    arrangement of each dataset's values over the methods (scipy's
    permutation_test with permutation_type="samples", enumerated in full),
    statistic the tie-corrected chi-square of friedmanchisquare, p-value
    P(statistic >= observed). The matrices are scores (higher = better);
    the statistic does not depend on the direction."""
    rng = np.random.default_rng(SEED + 3)
    cases = [
        [[0.9, 0.8], [0.7, 0.6]],                                     # N=2, k=2, identical
        [[0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [0.95, 0.85, 0.75]],       # N=3, k=3, identical
        [[0.9, 0.8], [0.7, 0.6], [0.5, 0.5]],                         # k=2 with a tied row
        [[0.9, 0.8], [0.7, 0.6], [0.5, 0.4], [0.3, 0.2], [0.2, 0.1]],  # k=2: the sign test
        [[0.9, 0.8, 0.8], [0.7, 0.7, 0.6], [0.5, 0.6, 0.6], [0.8, 0.9, 0.7]],
        [[0.9, 0.8, 0.7, 0.6], [0.6, 0.8, 0.7, 0.9]],                 # N=2, k=4
        np.round(rng.normal(0.8, 0.05, (3, 4)), 2).tolist(),
        np.round(rng.normal(0.8, 0.05, (6, 3)), 2).tolist(),
        np.round(rng.normal(0.8, 0.05, (2, 5)), 2).tolist(),
    ]

    def chi2(*samples):
        return stats.friedmanchisquare(*samples).statistic

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in cases:
            a = np.asarray(m, dtype=float)
            if a.shape[1] == 2:
                # friedmanchisquare wants 3 samples; for k = 2 the statistic
                # is Friedman's formula, written out (same tie correction).
                def chi2(x, y):
                    r = np.array([stats.rankdata(row) for row in np.stack([x, y], axis=1)])
                    n, k = r.shape
                    ssbn = np.sum(r.sum(axis=0) ** 2)
                    c = 1 - sum((t ** 3 - t) for row in r for t in np.unique(row, return_counts=True)[1]) / (k * (k * k - 1) * n)
                    return (12.0 / (k * n * (k + 1)) * ssbn - 3 * n * (k + 1)) / c
            else:
                def chi2(*samples):
                    return stats.friedmanchisquare(*samples).statistic
            res = stats.permutation_test(tuple(a.T), chi2, permutation_type="samples",
                                         vectorized=False, n_resamples=np.inf, alternative="greater")
            out.append({"matrix": a.tolist(), "chi2_tie_corrected": float(res.statistic),
                        "p_exact": float(res.pvalue)})
    return out


def bayes_signed_rank_mc(d, rope, prior, nsamples, rng):
    """Benavoli et al. (2017): Dirichlet process posterior with a pseudo-
    observation at 0 of weight `prior`; theta over Walsh sums z_i + z_j."""
    z = np.concatenate(([0.0], d))
    alpha = np.concatenate(([prior], np.ones(len(d))))
    s = z[:, None] + z[None, :]
    right = (s > 2 * rope).astype(float) + 0.5 * (s == 2 * rope)
    left = (s < -2 * rope).astype(float) + 0.5 * (s == -2 * rope)
    w = rng.dirichlet(alpha, nsamples)
    th_r = np.einsum("ij,jk,ik->i", w, right, w)
    th_l = np.einsum("ij,jk,ik->i", w, left, w)
    th_e = 1 - th_l - th_r
    th = np.stack([th_l, th_e, th_r], axis=1)
    win = (th == th.max(axis=1, keepdims=True)).astype(float)
    win /= win.sum(axis=1, keepdims=True)
    return win.mean(axis=0)


def bayes_signed_rank(rng):
    out = []
    nsamples = 400000
    cases = [
        (np.round(rng.normal(0.02, 0.02, 10), 4), 0.01, 0.5),
        (np.round(rng.normal(-0.03, 0.02, 12), 4), 0.01, 0.5),
        (np.round(rng.normal(0.0, 0.004, 15), 4), 0.01, 0.5),
        (np.round(rng.normal(0.01, 0.03, 8), 4), 0.01, 0.5),
        (np.round(rng.normal(0.01, 0.03, 8), 4), 0.0, 0.5),
        (np.round(rng.normal(0.015, 0.02, 20), 4), 0.02, 1.0),
        (np.array([0.05, 0.04]), 0.01, 0.5),
    ]
    for d, rope, prior in cases:
        p = bayes_signed_rank_mc(d, rope, prior, nsamples, rng)
        out.append({"diffs": d.tolist(), "rope": rope, "prior": prior, "samples": nsamples,
                    "p_left": float(p[0]), "p_rope": float(p[1]), "p_right": float(p[2])})
    return out


def correlated(rng):
    """Corani & Benavoli (2015) correlated Bayesian t-test and the Nadeau &
    Bengio (2003) corrected resampled t-test on per-fold differences."""
    out = []
    cases = [(10, 10, 0.01), (5, 2, 0.01), (10, 1, 0.0), (3, 10, 0.02), (10, 5, 0.005)]
    for folds, reps, rope in cases:
        d = np.round(rng.normal(0.01, 0.03, folds * reps), 4)
        n = len(d)
        rho = 1.0 / folds
        mean = d.mean()
        var = d.var(ddof=1)
        scale = np.sqrt((1.0 / n + rho / (1 - rho)) * var)
        post = stats.t(df=n - 1, loc=mean, scale=scale)
        p_left = post.cdf(-rope)
        p_right = post.sf(rope)
        tstat = mean / np.sqrt((1.0 / n + 1.0 / (folds - 1)) * var)
        p_nb = 2 * stats.t.sf(abs(tstat), n - 1)
        out.append({"diffs": d.tolist(), "folds": folds, "repetitions": reps, "rho": rho,
                    "rope": rope, "p_left": float(p_left), "p_rope": float(1 - p_left - p_right),
                    "p_right": float(p_right), "nb_t": float(tstat), "nb_df": n - 1,
                    "nb_p": float(p_nb)})
    return out


def main():
    rng = np.random.default_rng(SEED)
    ref = {
        "generator": "gen_reference.py",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "seed": SEED,
        "studentized_range": studentized_range(),
        "friedman": friedman(rng),
        "wilcoxon": wilcoxon(rng),
        "bayes_signed_rank": bayes_signed_rank(rng),
        "correlated": correlated(rng),
        "wilcoxon_zero": wilcoxon_zero(),
        "friedman_exact": friedman_exact(),
    }
    json.dump(ref, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
