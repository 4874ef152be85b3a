package fuzzy

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTrapezoidMembership(t *testing.T) {
	const e = Eps
	cases := []struct {
		name string
		tr   Trapezoid
		x    float64
		want float64
	}{
		{"plateau", Trapezoid{0, 1, 2, 3}, 1.5, 1},
		{"rising", Trapezoid{0, 1, 2, 3}, 0.25, 0.25},
		{"falling", Trapezoid{0, 1, 2, 3}, 2.75, 0.25},
		{"below", Trapezoid{0, 1, 2, 3}, -1, 0},
		{"above", Trapezoid{0, 1, 2, 3}, 4, 0},
		{"singleton hit", Trapezoid{2, 2, 2, 2}, 2, 1},
		{"singleton miss", Trapezoid{2, 2, 2, 2}, 2.5, 0},
		// Closed outer shoulders (docs/fidelity.md#trapezoid-membership): Low is 0 below a, High is
		// 0 from d+eps on.
		{"low shoulder below a", Trapezoid{1 - e, 1 - e, 2, 3}, 1 - 2*e, 0},
		{"low shoulder at q0", Trapezoid{1 - e, 1 - e, 2, 3}, 1, 1},
		{"high shoulder at q100", Trapezoid{0, 1, 2 + e, 2 + e}, 2, 1},
		{"high shoulder past d+eps", Trapezoid{0, 1, 2 + e, 2 + e}, 2 + 2*e + 1e-9, 0},
		// Degenerate quantiles of a 1/2 column
		// (docs/fidelity.md#trapezoid-membership).
		{"indicator Medium at 1", Trapezoid{1, 1, 1, 1}, 1, 1},
		{"High spike at 1", Trapezoid{1, 1, 2 + e, 2 + e}, 1, 0},
		{"High spike at 2", Trapezoid{1, 1, 2 + e, 2 + e}, 2, 1},
	}
	for _, c := range cases {
		if got := c.tr.Membership(c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Membership(%v) = %v, want %v", c.name, c.x, got, c.want)
		}
	}
}

// TestMembershipInto checks the bulk evaluation against Membership on
// random and degenerate shapes: vertical shoulders, a shoulder whose shift
// passes the plateau (A == B == C, so that B + Eps > C), a single point; at
// values on and one ulp beside every corner and shifted corner, at the
// infinities and NaN. Equal values up to the sign of a zero; NaN for NaN.
func TestMembershipInto(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 600
	xs := make([]float64, n)
	dst := make([]float64, n)
	for trial := 0; trial < 600; trial++ {
		c := [4]float64{}
		for i := range c {
			c[i] = math.Round(r.NormFloat64()*4) / 4
		}
		switch trial % 7 {
		case 0:
			c[1] = c[0]
		case 1:
			c[3] = c[2]
		case 2:
			c[1], c[2] = c[0], c[0]
		case 3:
			c[2], c[3] = c[1], c[1]
		case 4:
			c[1], c[2], c[3] = c[0], c[0], c[0]
		}
		for i := 1; i < 4; i++ { // sort the corners
			for j := i; j > 0 && c[j] < c[j-1]; j-- {
				c[j], c[j-1] = c[j-1], c[j]
			}
		}
		tr := Trapezoid{c[0], c[1], c[2], c[3]}
		near := []float64{c[0], c[1], c[2], c[3], c[1] + Eps, c[3] + Eps, math.Inf(1), math.Inf(-1), math.NaN()}
		for i := range xs {
			switch r.IntN(4) {
			case 0:
				xs[i] = near[r.IntN(len(near))]
			case 1:
				xs[i] = math.Nextafter(near[r.IntN(6)], math.Inf(2*r.IntN(2)-1))
			default:
				xs[i] = r.NormFloat64() * 3
			}
		}
		if trial%2 == 0 { // half the columns without NaN, for the report
			for i := range xs {
				if math.IsNaN(xs[i]) {
					xs[i] = c[0]
				}
			}
		}
		finite := tr.MembershipInto(dst, xs)
		wantFinite := true
		for i, x := range xs {
			want := tr.Membership(x)
			if dst[i] != want && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
				t.Fatalf("%+v at %v: bulk %v, single %v", tr, x, dst[i], want)
			}
			wantFinite = wantFinite && !math.IsNaN(want) && !math.IsInf(want, 0)
		}
		if finite != wantFinite {
			t.Fatalf("%+v: MembershipInto reports finite = %v, the values say %v", tr, finite, wantFinite)
		}
	}
}

// BenchmarkMembershipInto evaluates the three terms of a quantile
// partition on a column in row order, as FGRT's fit does for every feature.
func BenchmarkMembershipInto(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	col := make([]float64, 4096)
	for i := range col {
		col[i] = r.NormFloat64()
	}
	p, err := NumericPartition(col, QuantileStyle)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]float64, len(col))
	b.SetBytes(int64(8 * len(col) * len(p.Terms)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, term := range p.Terms {
			term.MembershipInto(dst, col)
		}
	}
}

func TestPercentileNumpyLinear(t *testing.T) {
	s := []float64{1, 2, 3, 4, 10}
	cases := []struct{ p, want float64 }{
		{0, 1}, {20, 1.8}, {40, 2.6}, {50, 3}, {60, 3.4}, {80, 5.2}, {100, 10}, {90, 7.6},
	}
	for _, c := range cases {
		if got := Percentile(s, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("P%v = %v, want %v", c.p, got, c.want)
		}
	}
	// numpy's _lerp: g >= 0.5 interpolates from the upper point, which
	// returns b exactly at g = 1 - tiny and is monotone in the last bit.
	if got := Percentile([]float64{0.1, 0.7}, 100); got != 0.7 {
		t.Errorf("P100 = %v", got)
	}
	if got := Percentile([]float64{5}, 37); got != 5 {
		t.Errorf("single value percentile %v", got)
	}
}

func TestNumericPartitionStyles(t *testing.T) {
	col := []float64{5, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, math.NaN()}
	p, err := NumericPartition(col, QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	// 11 values 1..11: q0=1 q20=3 q40=5 q60=7 q80=9 q100=11.
	want := [3]Trapezoid{{1 - Eps, 1 - Eps, 3, 5}, {3, 5, 7, 9}, {7, 9, 11 + Eps, 11 + Eps}}
	got, _ := p.Trapezoids()
	if got != want {
		t.Errorf("quantile partition %+v, want %+v", got, want)
	}
	if p.Min != 1 || p.Max != 11 || p.Terms[1].Name != "Medium" {
		t.Errorf("range/name %v %v %q", p.Min, p.Max, p.Terms[1].Name)
	}
	// Ruspini inside the range.
	for x := 1.0; x <= 11; x += 0.37 {
		s := 0.0
		for k := range p.Terms {
			s += p.Membership(k, x)
		}
		if math.Abs(s-1) > 1e-9 {
			t.Errorf("memberships at %v sum to %v", x, s)
		}
	}
	pp, err := NumericPartition(col, PaperStyle)
	if err != nil {
		t.Fatal(err)
	}
	// Q0..Q4 at 0/25/50/75/100: 1, 3.5, 6, 8.5, 11.
	wantP := [3]Trapezoid{{1, 1, 3.5, 6}, {3.5, 4.75, 7.25, 8.5}, {6, 8.5, 11, 11}}
	gotP, _ := pp.Trapezoids()
	if gotP != wantP {
		t.Errorf("paper partition %+v, want %+v", gotP, wantP)
	}
	if _, err := NumericPartition([]float64{math.NaN()}, QuantileStyle); err == nil {
		t.Error("all-NaN column accepted")
	}
	for _, col := range [][]float64{{1, math.Inf(1)}, {math.Inf(1), 1, 2}, {3, math.Inf(-1), 2, 5}} {
		if _, err := NumericPartition(col, QuantileStyle); err == nil {
			t.Errorf("infinite column %v accepted", col)
		}
	}
	if _, err := ParseStyle("cuts"); err == nil {
		t.Error("unknown style accepted")
	}
}

func TestCategoricalPartition(t *testing.T) {
	p, err := CategoricalPartition([]float64{2, 0, 2, 5, math.NaN(), 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Terms) != 3 || p.Terms[0].Category.Value != 0 || p.Terms[1].Category.Value != 2 || p.Terms[2].Category.Value != 5 {
		t.Fatalf("terms %+v", p.Terms)
	}
	if p.Membership(1, 2) != 1 || p.Membership(1, 0) != 0 || p.Membership(0, math.NaN()) != 1 {
		t.Error("crisp memberships wrong")
	}
	if i, err := p.TermIndex("5"); err != nil || i != 2 {
		t.Errorf("TermIndex(5) = %d, %v", i, err)
	}
	if _, err := p.TermIndex("7"); err == nil {
		t.Error("unknown term accepted")
	}
}

func TestFitPartitionsAndDescribe(t *testing.T) {
	X := [][]float64{{1, 0}, {2, 1}, {3, 1}, {4, 0}, {5, 2}}
	parts, err := FitPartitions(X, []bool{false, true}, QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].Nominal || !parts[1].Nominal || len(parts[1].Terms) != 3 {
		t.Fatalf("%+v", parts)
	}
	d := Describe(parts, []string{"age", "colour"})
	if !strings.Contains(d, "age (numeric") || !strings.Contains(d, "colour (nominal") || !strings.Contains(d, "High") {
		t.Errorf("describe:\n%s", d)
	}
	if _, err := FitPartitions([][]float64{{1}, {1, 2}}, []bool{false}, QuantileStyle); err == nil {
		t.Error("ragged matrix accepted")
	}
	if _, err := FitPartitions(nil, []bool{false}, QuantileStyle); err == nil {
		t.Error("empty matrix accepted")
	}
	if p := parts[0]; p.Clamp(100) != 5 || p.Clamp(-3) != 1 || p.Clamp(2.5) != 2.5 {
		t.Error("clamp")
	}
}

// TestRampsIsMembership: inside the support of a set whose shoulders are
// shifted as Membership shifts them, Ramps returns Membership's value bit
// for bit (what FGA's sorted columns rely on when they call Ramps per
// value): on both ramps, the plateau, next to the corners, and for
// vertical and very steep shoulders.
func TestRampsIsMembership(t *testing.T) {
	sets := []Trapezoid{
		{A: -1, B: 0, C: 0.5, D: 2},
		{A: -1, B: -1, C: 0.5, D: 2},         // vertical left shoulder
		{A: -1, B: 0, C: 2, D: 2},            // vertical right shoulder
		{A: -1, B: -1, C: 2, D: 2},           // both
		{A: 0, B: 1e-12, C: 1e-12, D: 3e-12}, // steep, a triangle
		{A: -3, B: 1, C: -1, D: 2},           // ramps that cross below 1
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, set := range sets {
		b, d := set.B, set.D
		if set.A == b {
			b += Eps
		}
		if set.C == d {
			d += Eps
		}
		xs := []float64{math.Nextafter(set.A, math.Inf(1)), math.Nextafter(d, math.Inf(-1)), b, set.C, (set.A + d) / 2}
		for k := 0; k < 1000; k++ {
			xs = append(xs, set.A+(d-set.A)*rng.Float64())
		}
		for _, x := range xs {
			if !(x > set.A && x < d) {
				continue
			}
			if got, want := Ramps(x, set.A, b, set.C, d), set.Membership(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%+v at %v: Ramps %v, Membership %v", set, x, got, want)
			}
		}
	}
}
