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

func TestSumOrderSmallAndBlocked(t *testing.T) {
	// Below 8 elements numpy adds left to right.
	x, y, z := 0.1, 0.2, 0.3 // variables: Go constant arithmetic would be exact
	if got := Sum([]float64{x, y, z}); got != (x+y)+z {
		t.Errorf("small sum = %v", got)
	}
	// 8..128 elements: eight running sums combined as a tree.
	a := make([]float64, 20)
	for i := range a {
		a[i] = 1 / float64(i+1)
	}
	var r [8]float64
	copy(r[:], a[:8])
	for k := 0; k < 8; k++ {
		r[k] += a[8+k]
	}
	want := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for i := 16; i < 20; i++ {
		want += a[i]
	}
	if got := Sum(a); got != want {
		t.Errorf("pairwise sum = %v, want %v", got, want)
	}
}

func TestSumExactForSmallIntegers(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 1000, 9000, 20000} {
		a := make([]float64, n)
		want := 0.0
		for i := range a {
			a[i] = float64(i%97 - 40)
			want += a[i]
		}
		if got := Sum(a); got != want {
			t.Fatalf("n=%d: %v, want %v", n, got, want)
		}
	}
}

// TestSumChunksAt8192 pins numpy's buffered reduction: beyond 8192 elements
// the buffers are summed separately and added in turn.
func TestSumChunksAt8192(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := make([]float64, 20000)
	for i := range a {
		a[i] = rng.Float64() * math.Pow(10, float64(rng.IntN(8)))
	}
	want := 0.0 + reference(a[:8192])
	want += reference(a[8192:16384])
	want += reference(a[16384:])
	if got := Sum(a); got != want {
		t.Fatalf("chunked sum %v, want %v", got, want)
	}
	ones := make([]float64, len(a))
	for i := range ones {
		ones[i] = 1
	}
	if got := Dot(a, ones); got != want {
		t.Fatalf("Dot with ones %v, want %v", got, want)
	}
}

func TestNegativeZero(t *testing.T) {
	nz := math.Copysign(0, -1)
	// A short run of -0.0 sums to -0.0 inside a buffer, and the reduction's
	// initial +0.0 then makes the total +0.0, as np.sum does.
	if got := pairwise([]float64{nz, nz}); !math.Signbit(got) {
		t.Fatal("pairwise of -0.0 must be -0.0")
	}
	if got := Sum([]float64{nz, nz}); math.Signbit(got) {
		t.Fatal("np.sum of -0.0 values is +0.0")
	}
}

// TestDotFill checks that producing the second operand chunk by chunk
// gives Dot bit for bit, across the 8192-value chunk boundary.
func TestDotFill(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 16))
	buf := make([]float64, Chunk)
	for _, n := range []int{0, 1, 9, 8191, 8192, 8193, 20000} {
		a := make([]float64, n)
		b := make([]float64, n)
		for i := range a {
			a[i], b[i] = r.Float64()*1e3, r.Float64()
		}
		next, chunks := b, 0
		got := DotFill(a, buf, func(dst []float64) {
			chunks++
			next = next[copy(dst, next):]
		})
		if want := Dot(a, b); got != want || len(next) != 0 {
			t.Errorf("n=%d: DotFill %v (%d values left), Dot %v", n, got, len(next), want)
		}
		if want := (n + Chunk - 1) / Chunk; chunks != want {
			t.Errorf("n=%d: %d chunks, want %d", n, chunks, want)
		}
	}
}
