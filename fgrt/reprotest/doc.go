// Package reprotest holds an end-to-end reproduction test of the authors'
// committed FGRT and FGRT* results on all ten KEEL datasets: the paper's
// data preparation (bench/paperprep) feeds package fgrt, and every one of
// the 800 rows of fuzzy_cart_ablation_all_configs.csv and the 20 committed
// best-of-16 means are compared. It lives apart from package fgrt so that
// the learner itself imports neither bench nor datasets; it has no
// non-test code.
package reprotest
