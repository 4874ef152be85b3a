package fgrt

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/npsum"
)

// TestDotCodedMatchesDecodedDot pins the fused dot of the encoded store to
// npsum's dot of the decoded memberships, bit for bit (the signs of zeros
// included), across the reduction's block boundaries.
func TestDotCodedMatchesDecodedDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	value := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return 1
		default:
			return rng.Float64()
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 127, 128, 129, 136, 1000, 8191, 8192, 8193, 20000, 50001} {
		for _, fracShare := range []int{0, 1, 3, 10} {
			a := make([]float64, n)
			mu := make([]float64, n)
			for i := range a {
				a[i] = value() * 3
				switch r := rng.IntN(10); {
				case r < fracShare:
					mu[i] = value()
				case r%2 == 0:
					mu[i] = 0
				default:
					mu[i] = 1
				}
			}
			codes := make([]uint8, n)
			classify(codes, mu)
			frac := make([]float64, n+1)
			count := gatherFrac(frac, codes, mu)
			frac = frac[:count+1]
			packed := make([]uint8, (n+3)/4)
			pack(packed, codes)
			for i, c := range codes {
				if codeAt(packed, i) != c {
					t.Fatalf("n=%d: packed code %d is %d, want %d", n, i, codeAt(packed, i), c)
				}
			}
			// From every kind of offset: a class's rows start anywhere.
			for _, off := range []int{0, 1, 2, 3, 5, n / 3, n - 1} {
				if off < 0 || off > n {
					continue
				}
				before := 0
				for _, c := range codes[:off] {
					before += int(c >> 1)
				}
				want := npsum.Dot(a[off:], mu[off:])
				got := dotCoded(a[off:], packed, off, frac[before:])
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("n=%d, offset %d, frac share %d/10: dotCoded = %v (bits %x), npsum.Dot = %v (bits %x)", n, off, fracShare, got, math.Float64bits(got), want, math.Float64bits(want))
				}
				dst := make([]float64, n-off)
				decode(dst, packed, off, frac[before:])
				for i, v := range dst {
					if math.Float64bits(v) != math.Float64bits(mu[off+i]) {
						t.Fatalf("n=%d, offset %d: decoded row %d is %v, want %v", n, off, off+i, v, mu[off+i])
					}
				}
			}
		}
	}
}

// BenchmarkDotCoded compares the fused dot with decoding into a buffer
// first, on one chunk-aligned column of 640,000 rows.
func BenchmarkDotCoded(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 640_000
	a, mu := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = rng.Float64()
		switch rng.IntN(4) {
		case 0:
			mu[i] = rng.Float64()
		case 1:
			mu[i] = 1
		}
	}
	codes := make([]uint8, n)
	classify(codes, mu)
	frac := make([]float64, n+1)
	frac = frac[:gatherFrac(frac, codes, mu)+1]
	packed := make([]uint8, (n+3)/4)
	pack(packed, codes)
	b.Run("fused", func(b *testing.B) {
		for b.Loop() {
			dotCoded(a, packed, 0, frac)
		}
	})
	b.Run("decoded", func(b *testing.B) {
		buf := make([]float64, npsum.Chunk)
		for b.Loop() {
			off, f := 0, frac
			npsum.DotFill(a, buf, func(dst []float64) {
				j := decode(dst, packed, off, f)
				off, f = off+len(dst), f[j:]
			})
		}
	})
}

// TestFiringSkipKeepsPredictions: skipping the memberships below a parent
// that does not fire changes neither Predict nor PredictProba (bit for
// bit) on trees of several depths, test rows drawn wider than the
// training rows so that many nodes do not fire; and degenerate terms of
// huge values are never skipped.
func TestFiringSkipKeepsPredictions(t *testing.T) {
	X, y := synthetic(3, 3000, 6)
	Xte, _ := synthetic(4, 2000, 6)
	for _, row := range Xte {
		row[2] *= 3
	}
	parts, err := fuzzy.FitPartitions(X, make([]bool, 6), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range []int{3, 15, 40} {
		g := benchGrow
		g.MaxRules = rules
		m, err := FitTree(X, y, 2, parts, g)
		if err != nil {
			t.Fatal(err)
		}
		skipped := 0
		act, plain := make([]float64, len(m.Nodes)), make([]float64, len(m.Nodes))
		bounded, none := m.boundedNodes(), make([]bool, len(m.Nodes))
		for _, x := range Xte {
			m.firing(x, act, bounded)
			m.firing(x, plain, none)
			for i := range act {
				if act[i] != plain[i] {
					t.Fatalf("rules %d: node %d fires %v, %v without the skip", rules, i, act[i], plain[i])
				}
				if act[i] == 0 && i > 0 && act[m.Nodes[i].Parent] == 0 {
					skipped++
				}
			}
		}
		if rules > 3 && skipped == 0 {
			t.Errorf("rules %d: no node was skipped; the test does not exercise the skip", rules)
		}
		pred, proba := m.Predict(Xte), m.PredictProba(Xte)
		skipUnfired = false
		wantPred, wantProba := m.Predict(Xte), m.PredictProba(Xte)
		skipUnfired = true
		for r := range Xte {
			if pred[r] != wantPred[r] {
				t.Fatalf("rules %d, row %d: Predict %d, %d without the skip", rules, r, pred[r], wantPred[r])
			}
			for k, v := range proba[r] {
				if math.Float64bits(v) != math.Float64bits(wantProba[r][k]) {
					t.Fatalf("rules %d, row %d: PredictProba %v, %v without the skip", rules, r, proba[r], wantProba[r])
				}
			}
		}
	}
	for _, c := range []struct {
		term fuzzy.Term
		want bool
	}{
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: 0, B: 1, C: 2, D: 3}}, true},
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: 0, B: 0, C: 3, D: 3}}, true},
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: 2, B: 2, C: 2, D: 2}}, true},
		{fuzzy.Term{Crisp: true}, true},
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: 1e200, B: 1e200, C: 2e200, D: 3e200}}, false},
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: 0, B: 1, C: 2, D: math.Inf(1)}}, false},
		{fuzzy.Term{Shape: fuzzy.Trapezoid{A: math.NaN(), B: 1, C: 2, D: 3}}, false},
	} {
		if got := boundedTerm(c.term); got != c.want {
			t.Errorf("boundedTerm(%+v) = %v, want %v", c.term, got, c.want)
		}
	}
}

// TestEncodeColumnRoundTrip: a node's firing strengths survive encoding
// bit for bit (zeros of both signs, ones, NaN, fractions), at lengths
// around the code bytes and the encoding blocks.
func TestEncodeColumnRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	specials := []float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(1), 0.25, math.SmallestNonzeroFloat64}
	for _, n := range []int{0, 1, 3, 4, 5, 1023, 1024, 1025, 5000} {
		v := make([]float64, n)
		for i := range v {
			if rng.IntN(3) == 0 {
				v[i] = rng.Float64()
			} else {
				v[i] = specials[rng.IntN(len(specials))]
			}
		}
		c := encodeColumn(v)
		got := make([]float64, n)
		c.decodeInto(got)
		for i := range v {
			if math.Float64bits(got[i]) != math.Float64bits(v[i]) {
				t.Fatalf("n=%d row %d: decoded %v, encoded %v", n, i, got[i], v[i])
			}
		}
	}
}
