// Package npsum reproduces numpy's pairwise summation (np.sum of a float64
// array), so sums of memberships round as they do in the reference code.
package npsum

// Dot returns sum_i a[i]*b[i] with numpy's pairwise summation of
// the product array (np.sum(a*b)): blocks of up to 128 elements use eight
// interleaved accumulators, longer runs are split in halves at a multiple of
// eight. The reference sums memberships with numpy, so this keeps our sums
// close to its rounding while being much faster than one serial chain.
func Dot(a, b []float64) float64 {
	n := len(a)
	if n < 8 {
		res := 0.0
		for i := 0; i < n; i++ {
			res += float64(a[i] * b[i])
		}
		return res
	}
	if n <= 128 {
		b = b[:n]
		r0 := float64(a[0] * b[0])
		r1 := float64(a[1] * b[1])
		r2 := float64(a[2] * b[2])
		r3 := float64(a[3] * b[3])
		r4 := float64(a[4] * b[4])
		r5 := float64(a[5] * b[5])
		r6 := float64(a[6] * b[6])
		r7 := float64(a[7] * b[7])
		i := 8
		for ; i < n-n%8; i += 8 {
			r0 += float64(a[i] * b[i])
			r1 += float64(a[i+1] * b[i+1])
			r2 += float64(a[i+2] * b[i+2])
			r3 += float64(a[i+3] * b[i+3])
			r4 += float64(a[i+4] * b[i+4])
			r5 += float64(a[i+5] * b[i+5])
			r6 += float64(a[i+6] * b[i+6])
			r7 += float64(a[i+7] * b[i+7])
		}
		res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			res += float64(a[i] * b[i])
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return Dot(a[:n2], b[:n2]) + Dot(a[n2:], b[n2:])
}

// Sum is numpy's pairwise sum of a.
func Sum(a []float64) float64 {
	n := len(a)
	if n < 8 {
		res := 0.0
		for i := 0; i < n; i++ {
			res += a[i]
		}
		return res
	}
	if n <= 128 {
		r0, r1, r2, r3, r4, r5, r6, r7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
		i := 8
		for ; i < n-n%8; i += 8 {
			r0 += a[i]
			r1 += a[i+1]
			r2 += a[i+2]
			r3 += a[i+3]
			r4 += a[i+4]
			r5 += a[i+5]
			r6 += a[i+6]
			r7 += a[i+7]
		}
		res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return Sum(a[:n2]) + Sum(a[n2:])
}
