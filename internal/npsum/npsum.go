// Package npsum reproduces numpy's summation of a contiguous float64 array
// (np.sum, numpy 1.24), so that sums round exactly as they do in the
// reference code: the reduction runs over buffers of 8192 elements, each
// summed pairwise (pairwise_sum_DOUBLE: fewer than 8 elements serially from
// -0.0, up to 128 with eight interleaved accumulators, longer runs split in
// halves at a multiple of eight), and the buffer sums are added in turn to
// the reduction's initial +0.0.
package npsum

import "math"

// reduceChunk is numpy's ufunc buffer size: pairwise summation only runs
// within a buffer.
const reduceChunk = 8192

// Sum is np.sum(a).
func Sum(a []float64) float64 {
	acc := 0.0
	for len(a) > 0 {
		m := min(len(a), reduceChunk)
		acc += pairwise(a[:m])
		a = a[m:]
	}
	return acc
}

// Dot is np.sum(a*b) for equal-length a and b, without materialising the
// product array.
func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	acc := 0.0
	for len(a) > 0 {
		m := min(len(a), reduceChunk)
		acc += pairwiseDot(a[:m], b[:m])
		a, b = a[m:], b[m:]
	}
	return acc
}

// Chunk is the length of numpy's reduction buffers: DotFill asks for the
// second operand at most this many values at a time.
const Chunk = reduceChunk

// DotFill is Dot(a, b) for a b that is produced on demand: fill(dst) must
// write the next len(dst) values of b (consecutive chunks of at most Chunk
// values, in order) into dst, a prefix of buf (len(buf) >= Chunk). It lets
// a caller keep b compressed and expand it one cache-sized chunk at a time.
func DotFill(a, buf []float64, fill func(dst []float64)) float64 {
	acc := 0.0
	for len(a) > 0 {
		m := min(len(a), reduceChunk)
		dst := buf[:m]
		fill(dst)
		acc += pairwiseDot(a[:m], dst)
		a = a[m:]
	}
	return acc
}

// pairwiseDot returns sum_i a[i]*b[i] with numpy's pairwise summation of
// the product array (np.sum(a*b)): blocks of up to 128 elements use eight
// interleaved accumulators, longer runs are split in halves at a multiple of
// eight. The reference sums memberships with numpy, so this keeps our sums
// close to its rounding while being much faster than one serial chain.
func pairwiseDot(a, b []float64) float64 {
	n := len(a)
	if n < 8 {
		res := math.Copysign(0, -1)
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
	return pairwiseDot(a[:n2], b[:n2]) + pairwiseDot(a[n2:], b[n2:])
}

// pairwise is numpy's pairwise_sum_DOUBLE over one buffer.
func pairwise(a []float64) float64 {
	n := len(a)
	if n < 8 {
		res := math.Copysign(0, -1) // numpy starts at -0.0 so that -0.0 sums survive
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
	return pairwise(a[:n2]) + pairwise(a[n2:])
}
