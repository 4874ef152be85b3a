package fga

// Helpers that only the tests use: no part of the package's API.

// MCC returns the Matthews correlation coefficient of predictions against
// the truth, with scikit-learn's multiclass formula (matthews_corrcoef): 0
// when either marginal is constant. Labels are class indices 0..nClasses-1;
// other values count as a class of their own.
func MCC(truth, pred []int, nClasses int) float64 {
	if len(truth) == 0 {
		return 0
	}
	// Map every label seen to a dense index; extra labels (e.g. -1) get
	// their own row and column.
	idx := map[int]int{}
	for k := 0; k < nClasses; k++ {
		idx[k] = k
	}
	for _, v := range append(append([]int(nil), truth...), pred...) {
		if _, ok := idx[v]; !ok {
			idx[v] = len(idx)
		}
	}
	c := len(idx)
	conf := make([]int, c*c)
	for i, t := range truth {
		conf[idx[t]*c+idx[pred[i]]]++
	}
	return mccFromConfusion(conf, c)
}
