package fmath

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sumInputs are slices of every length up to 300 and a few long ones, of
// accuracies (what the analysis averages) and of values over many scales,
// each in its own allocation as the analysis passes them.
func sumInputs() [][]float64 {
	r := rand.New(rand.NewPCG(11, 12))
	var out [][]float64
	for _, n := range append(seq(301), 1000, 4097, 10000) {
		for kind := 0; kind < 3; kind++ {
			x := make([]float64, n)
			for i := range x {
				switch kind {
				case 0:
					x[i] = float64(r.IntN(200)) / 199 // an accuracy on a 199-row fold
				case 1:
					x[i] = r.Float64()
				default:
					x[i] = math.Ldexp(r.Float64()-0.5, r.IntN(40)-20)
				}
			}
			out = append(out, x)
		}
	}
	return out
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestMeanStdDevMatchesGonumOnAMD64: on linux/amd64, Sum and MeanStdDev give
// gonum's bits (its assembly Sum) on every slice above.
func TestMeanStdDevMatchesGonumOnAMD64(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("gonum's reference bits are amd64's; on %s TestSumSameBitsOnEveryArchitecture checks them", runtime.GOARCH)
	}
	orderMatters := 0
	for _, x := range sumInputs() {
		m, s := MeanStdDev(x)
		wm, ws := stat.MeanStdDev(x, nil)
		if !sameBits(m, wm) || !sameBits(s, ws) {
			t.Fatalf("n=%d: MeanStdDev = %v, %v; gonum gives %v, %v", len(x), m, s, wm, ws)
		}
		plain := 0.0
		for _, v := range x {
			plain += v
		}
		if plain != Sum(x) {
			orderMatters++
		}
	}
	if orderMatters == 0 {
		t.Fatal("no input tells Sum's order from a plain loop: the test would not see a wrong order")
	}
}

// TestSumSameBitsOnEveryArchitecture pins the bits of MeanStdDev over
// sumInputs with a fingerprint recorded on linux/amd64.
func TestSumSameBitsOnEveryArchitecture(t *testing.T) {
	const want = 0x8ab72abdda676da
	h := uint64(14695981039346656037)
	for _, x := range sumInputs() {
		m, s := MeanStdDev(x)
		for _, v := range []float64{m, s} {
			if math.IsNaN(v) {
				v = math.NaN()
			}
			b := math.Float64bits(v)
			for i := 0; i < 8; i++ {
				h ^= b >> (8 * i) & 0xff
				h *= 1099511628211
			}
		}
	}
	if h != want {
		t.Errorf("MeanStdDev on %s/%s: fingerprint %#x, linux/amd64 gives %#x", runtime.GOOS, runtime.GOARCH, h, uint64(want))
	}
}
