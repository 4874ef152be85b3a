package npsum

import (
	"math"
	"math/rand/v2"
	"testing"
)

// reference is a direct transcription of numpy's pairwise_sum recursion
// (blocks of 8 accumulators up to 128 elements, halves at multiples of 8).
func reference(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		s := 0.0
		for _, v := range a {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := 0; j < 8; j++ {
				r[j] += a[i+j]
			}
		}
		s := (r[0] + r[1]) + (r[2] + r[3]) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	}
	h := n / 2
	h -= h % 8
	return reference(a[:h]) + reference(a[h:])
}

func TestSumAndDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 300, 1000, 5000} {
		a := make([]float64, n)
		b := make([]float64, n)
		p := make([]float64, n)
		for i := range a {
			a[i] = r.Float64() * math.Pow(10, float64(r.IntN(6)-3))
			b[i] = r.Float64()
			p[i] = a[i] * b[i]
		}
		if got, want := Sum(a), reference(a); got != want {
			t.Errorf("n=%d: Sum %v, reference %v", n, got, want)
		}
		if got, want := Dot(a, b), Sum(p); got != want {
			t.Errorf("n=%d: Dot %v, Sum of products %v", n, got, want)
		}
	}
}
