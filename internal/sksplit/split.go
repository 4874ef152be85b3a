// Package sksplit reproduces, bit for bit, the scikit-learn 1.2.1 data
// splitting and scaling used by the FGRT paper's experiment:
// _approximate_mode, the stratified train_test_split (first split of
// StratifiedShuffleSplit), StratifiedKFold's test-fold assignment and a dense
// StandardScaler whose sums follow numpy's pairwise summation order.
//
// Randomness comes from internal/nprand. Every function that takes an integer
// seed builds a fresh nprand.New(seed), exactly as sklearn's
// check_random_state(int) builds a fresh numpy RandomState for every
// split/fit call.
package sksplit

//lint:file-ignore ST1005 the error messages are scikit-learn 1.2.1's, word for word, so that a refusal reads as the reference's would

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/internal/nprand"
)

// ApproximateMode is sklearn.utils._approximate_mode: it splits nDraws over
// the classes proportionally to classCounts (floor of the continuous share,
// then the leftover draws go to the classes with the largest remainders,
// ties broken by rng.choice without replacement). The float operations and
// the random draws are those of sklearn, so rng advances identically.
//
// Degenerate input does not panic: an empty or all-zero classCounts gives
// zeros and draws nothing.
func ApproximateMode(classCounts []int, nDraws int, rng *nprand.RandomState) []int {
	out := make([]int, len(classCounts))
	total := 0
	for _, c := range classCounts {
		total += c
	}
	if total == 0 {
		return out
	}
	continuous := make([]float64, len(classCounts))
	floored := make([]float64, len(classCounts))
	flooredSum := 0.0
	for i, c := range classCounts {
		// numpy: (class_counts / class_counts.sum()) * n_draws — divide first.
		continuous[i] = float64(c) / float64(total) * float64(nDraws)
		floored[i] = math.Floor(continuous[i])
		flooredSum += floored[i] // small integers: exact in any order
	}
	need := nDraws - int(flooredSum)
	if need > 0 {
		remainder := make([]float64, len(classCounts))
		for i := range remainder {
			remainder[i] = continuous[i] - floored[i]
		}
		values := slices.Clone(remainder)
		slices.Sort(values)
		values = slices.Compact(values)
		slices.Reverse(values)
		for _, value := range values {
			var inds []int
			for i, r := range remainder {
				if r == value {
					inds = append(inds, i)
				}
			}
			addNow := min(len(inds), need)
			for _, i := range nprand.ChoiceOf(rng, inds, addNow) {
				floored[i]++
			}
			need -= addNow
			if need == 0 {
				break
			}
		}
	}
	for i, f := range floored {
		out[i] = int(f)
	}
	return out
}

// ShuffleSplitSizes is sklearn's _validate_shuffle_split for a float
// test_size and no train_size: nTest = ceil(testSize*n) (float64 product),
// nTrain = n - nTest.
func ShuffleSplitSizes(n int, testSize float64) (nTrain, nTest int, err error) {
	if !(testSize > 0 && testSize < 1) {
		return 0, 0, fmt.Errorf("test_size=%v should be a float in the (0, 1) range", testSize)
	}
	nTest = int(math.Ceil(testSize * float64(n)))
	nTrain = n - nTest
	if nTrain == 0 {
		return 0, 0, fmt.Errorf("With n_samples=%d, test_size=%v and train_size=None, the resulting train set will be empty. Adjust any of the aforementioned parameters.", n, testSize)
	}
	return nTrain, nTest, nil
}

// sortedClasses returns, as np.unique(y, return_inverse=True) does, the
// sorted distinct labels and the position of each y[i] among them.
func sortedClasses(y []int) (classes []int, yIdx []int) {
	classes = slices.Clone(y)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	pos := make(map[int]int, len(classes))
	for k, c := range classes {
		pos[c] = k
	}
	yIdx = make([]int, len(y))
	for i, v := range y {
		yIdx[i] = pos[v]
	}
	return classes, yIdx
}

// StratifiedShuffleSplitFirst is the first (train, test) pair yielded by
// StratifiedShuffleSplit(n_splits, test_size=nTest, train_size=nTrain,
// random_state=seed).split(X, y) with integer sizes. Classes are visited in
// sorted label order; the returned orders are sklearn's final shuffles.
// Errors carry sklearn's messages.
func StratifiedShuffleSplitFirst(y []int, nTrain, nTest int, seed uint32) (train, test []int, err error) {
	n := len(y)
	if n == 0 {
		return nil, nil, errors.New("sksplit: empty y")
	}
	if nTrain <= 0 || nTest <= 0 || nTrain+nTest > n {
		return nil, nil, fmt.Errorf("The sum of train_size and test_size = %d, should be smaller than the number of samples %d (and both positive)", nTrain+nTest, n)
	}
	classes, yIdx := sortedClasses(y)
	k := len(classes)
	counts := make([]int, k)
	for _, c := range yIdx {
		counts[c]++
	}
	if err := checkStratifiedSizes(counts, nTrain, nTest); err != nil {
		return nil, nil, err
	}
	// Stable argsort of the class positions: each class's indices ascending.
	classIndices := make([][]int, k)
	for i, c := range yIdx {
		classIndices[c] = append(classIndices[c], i)
	}
	rng := nprand.New(seed)
	nI := ApproximateMode(counts, nTrain, rng)
	remaining := make([]int, k)
	for c := range counts {
		remaining[c] = counts[c] - nI[c]
	}
	tI := ApproximateMode(remaining, nTest, rng)
	train = make([]int, 0, nTrain)
	test = make([]int, 0, nTest)
	for c := 0; c < k; c++ {
		perm := rng.Permutation(counts[c])
		for p, q := range perm {
			switch {
			case p < nI[c]:
				train = append(train, classIndices[c][q])
			case p < nI[c]+tI[c]:
				test = append(test, classIndices[c][q])
			}
		}
	}
	train = nprand.PermutationOf(rng, train)
	test = nprand.PermutationOf(rng, test)
	return train, test, nil
}

// checkStratifiedSizes refuses, in sklearn's words, a class of one member
// or a training or test set smaller than the number of classes.
func checkStratifiedSizes(counts []int, nTrain, nTest int) error {
	k := len(counts)
	if slices.Min(counts) < 2 {
		return errors.New("The least populated class in y has only 1 member, which is too few. The minimum number of groups for any class cannot be less than 2.")
	}
	if nTrain < k {
		return fmt.Errorf("The train_size = %d should be greater or equal to the number of classes = %d", nTrain, k)
	}
	if nTest < k {
		return fmt.Errorf("The test_size = %d should be greater or equal to the number of classes = %d", nTest, k)
	}
	return nil
}

// TrainTestSplit returns the index arrays of sklearn's
// train_test_split(arange(len(y)), test_size=testSize, random_state=seed,
// stratify=y): positions into y, in sklearn's (shuffled) order.
func TrainTestSplit(y []int, testSize float64, seed uint32) (train, test []int, err error) {
	nTrain, nTest, err := ShuffleSplitSizes(len(y), testSize)
	if err != nil {
		return nil, nil, err
	}
	return StratifiedShuffleSplitFirst(y, nTrain, nTest, seed)
}

// StratifiedKFold returns the test fold (0..k-1) of every sample as
// StratifiedKFold(n_splits=k, shuffle=shuffle, random_state=seed)
// ._make_test_folds does. Classes are encoded by order of first appearance;
// per class the round-robin fold allocation is shuffled with a single
// generator. With shuffle=false the seed is ignored (sklearn's
// random_state=None; sklearn rejects an explicit random_state then).
//
// Like sklearn it errors when k < 2, when k exceeds the number of samples,
// and when EVERY class has fewer than k members; a class smaller than k is
// only a warning in sklearn (see FewerThanK) and allowed here.
func StratifiedKFold(y []int, k int, shuffle bool, seed uint32) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("k-fold cross-validation requires at least one train/test split by setting n_splits=2 or more, got n_splits=%d.", k)
	}
	n := len(y)
	if k > n {
		return nil, fmt.Errorf("Cannot have number of splits n_splits=%d greater than the number of samples: n_samples=%d.", k, n)
	}
	enc, counts := firstAppearance(y)
	allSmall := true
	for _, c := range counts {
		if c >= k {
			allSmall = false
		}
	}
	if allSmall {
		return nil, fmt.Errorf("n_splits=%d cannot be greater than the number of members in each class.", k)
	}
	members := make([][]int, len(counts))
	for i, c := range enc {
		members[c] = append(members[c], i)
	}
	var rng *nprand.RandomState
	if shuffle {
		rng = nprand.New(seed)
	}
	folds := make([]int, n)
	start := 0
	for c, cnt := range counts {
		// Positions start..start+cnt-1 of the sorted encoded labels; the
		// round robin gives position p to fold p % k.
		forClass := make([]int, 0, cnt)
		for f := 0; f < k; f++ {
			for p := start; p < start+cnt; p++ {
				if p%k == f {
					forClass = append(forClass, f)
				}
			}
		}
		if shuffle {
			rng.ShuffleInts(forClass)
		}
		for j, i := range members[c] {
			folds[i] = forClass[j]
		}
		start += cnt
	}
	return folds, nil
}

// FewerThanK reports whether some class of y has fewer than k members, the
// case in which sklearn's StratifiedKFold warns but proceeds.
func FewerThanK(y []int, k int) bool {
	_, counts := firstAppearance(y)
	for _, c := range counts {
		if c < k {
			return true
		}
	}
	return false
}

// firstAppearance encodes labels by order of first appearance and counts them.
func firstAppearance(y []int) (enc []int, counts []int) {
	code := make(map[int]int)
	enc = make([]int, len(y))
	for i, v := range y {
		c, ok := code[v]
		if !ok {
			c = len(code)
			code[v] = c
			counts = append(counts, 0)
		}
		enc[i] = c
		counts[c]++
	}
	return enc, counts
}
