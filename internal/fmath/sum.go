package fmath

import "math"

// Sum is gonum's floats.Sum as linux/amd64 computes it (its SSE2 assembly,
// on a slice that starts on a 16-byte boundary, as Go's allocator places
// every []float64 of two or more elements): elements go in pairs into four
// two-lane accumulators, 16 at a time, then 8, 4 and 2 at a time with the
// accumulators folded pairwise, then the two lanes are added and a last odd
// element joins. Other architectures run gonum's plain loop instead, which
// adds in another order.
func Sum(x []float64) float64 {
	var acc [4][2]float64 // acc[k] is the accumulator register SUM_k, two lanes
	i, n := 0, len(x)
	addPair := func(k int) {
		acc[k][0] += x[i]
		acc[k][1] += x[i+1]
		i += 2
	}
	for n-i >= 16 {
		for r := 0; r < 2; r++ {
			addPair(0)
			addPair(1)
			addPair(2)
			addPair(3)
		}
	}
	if n-i >= 8 {
		addPair(0)
		addPair(1)
		addPair(2)
		addPair(3)
	}
	fold := func(into, from int) {
		acc[into][0] += acc[from][0]
		acc[into][1] += acc[from][1]
	}
	fold(0, 3)
	fold(1, 2)
	if n-i >= 4 {
		addPair(0)
		addPair(1)
	}
	fold(0, 1)
	if n-i >= 2 {
		addPair(0)
	}
	s := acc[0][0] + acc[0][1]
	if n-i == 1 {
		s += x[i]
	}
	return s
}

// MeanStdDev is gonum's stat.MeanStdDev(x, nil) as linux/amd64 computes it:
// the mean from Sum, then the corrected two-pass sample variance (Chan,
// Golub and LeVeque's (1.7)) with its products rounded, and its square root.
func MeanStdDev(x []float64) (mean, std float64) {
	n := float64(len(x))
	mean = Sum(x) / n
	var ss, compensation float64
	for _, v := range x {
		d := v - mean
		ss += float64(d * d)
		compensation += d
	}
	variance := (ss - float64(compensation*compensation/n)) / (n - 1)
	return mean, math.Sqrt(variance)
}
