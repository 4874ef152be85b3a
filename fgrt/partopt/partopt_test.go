package partopt

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// TestDecodeProperties: every non-negative increment vector decodes to
// three ordered trapezoids that start at xmin, end at xmax (to rounding)
// and leave no gap in [xmin, xmax].
func TestDecodeProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 2000; trial++ {
		var e Encoding
		for i := 1; i < 12; i++ {
			e[i] = r.NormFloat64()
		}
		e.clampIncrements()
		xmin := r.NormFloat64() * 10
		xmax := xmin + math.Abs(r.NormFloat64())*5 + 1e-3
		sets := Decode(e, xmin, xmax)
		var pts [12]float64
		for tm, s := range sets {
			c := [4]float64{s.A, s.B, s.C, s.D}
			if !(c[0] <= c[1] && c[1] <= c[2] && c[2] <= c[3]) {
				t.Fatalf("trial %d: term %d corners not ordered: %v", trial, tm, c)
			}
			for k := range c {
				pts[positions[tm][k]] = c[k]
			}
		}
		for i := 1; i < 12; i++ {
			if pts[i] < pts[i-1] {
				t.Fatalf("trial %d: interleaved corners not ordered: %v", trial, pts)
			}
		}
		tol := 4 * 0x1p-52 * math.Max(math.Abs(xmin), math.Abs(xmax))
		if sets[0].A != xmin || math.Abs(sets[2].D-xmax) > tol {
			t.Fatalf("trial %d: range [%v, %v], want [%v, %v]", trial, sets[0].A, sets[2].D, xmin, xmax)
		}
		allZero := true
		for i := 1; i < 12; i++ {
			allZero = allZero && e[i] == 0
		}
		if allZero {
			continue
		}
		for k := 0; k < 50; k++ {
			x := xmin + r.Float64()*(sets[2].D-xmin)
			s := 0.0
			for _, tr := range sets {
				s += Membership(x, tr)
			}
			if s <= 0 {
				t.Fatalf("trial %d: no term covers %v: %+v", trial, x, sets)
			}
		}
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	sets := [3]fuzzy.Trapezoid{{A: 0, B: 0, C: 1, D: 2}, {A: 1, B: 2, C: 3, D: 4}, {A: 3, B: 4, C: 5, D: 5}}
	e := Encode(sets)
	want := Encoding{0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}
	if e != want {
		t.Fatalf("encoding %v, want %v", e, want)
	}
	if got := Decode(e, 0, 5); got != sets {
		t.Errorf("decode %+v", got)
	}
}

// testColumn builds a column (continuous or integer-valued) and labels.
func testColumn(r *rand.Rand, n, classes int, integer bool) ([]float64, []int) {
	col := make([]float64, n)
	y := make([]int, n)
	for i := range col {
		v := r.NormFloat64()
		if integer {
			v = float64(r.IntN(5))
		}
		col[i] = v
		s := v + r.NormFloat64()
		y[i] = int(math.Min(math.Max(math.Floor(s+float64(classes)/2), 0), float64(classes-1)))
	}
	return col, y
}

// bruteGrid is the reference grid: every point evaluated exactly, strict >.
func bruteGrid(ws *workspace, enc0 Encoding, r float64) (Encoding, float64) {
	best, bestS := enc0, ws.exact(Decode(enc0, ws.xmin, ws.xmax))
	for _, a := range gridSteps {
		for _, b := range gridSteps {
			for _, c := range gridSteps {
				t := best
				t[2], t[4], t[6] = a*r, b*r, c*r
				t.clampIncrements()
				if s := ws.exact(Decode(t, ws.xmin, ws.xmax)); s > bestS {
					best, bestS = t, s
				}
			}
		}
	}
	return best, bestS
}

// TestGridScreeningMatchesBruteForce: the screened grid picks exactly what
// evaluating all 217 points exactly picks.
func TestGridScreeningMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 60; trial++ {
		n := 20 + r.IntN(400)
		classes := 2 + r.IntN(3)
		col, y := testColumn(r, n, classes, trial%3 == 0)
		nc, _ := countClasses(y)
		p, err := fuzzy.NumericPartition(col, fuzzy.QuantileStyle)
		if err != nil {
			t.Fatal(err)
		}
		init, _ := p.Trapezoids()
		ws := newWorkspace(n, nc)
		ws.load(col, y)
		enc0 := Encode(init)
		wantE, wantS := bruteGrid(ws, enc0, ws.xmax-ws.xmin)
		res := ws.optimizeFeature(col, y, init, Grid)
		if res.Sets != Decode(wantE, ws.xmin, ws.xmax) || res.Score != wantS {
			t.Fatalf("trial %d: screened grid %+v (%v), brute force %+v (%v)", trial, res.Sets, res.Score,
				Decode(wantE, ws.xmin, ws.xmax), wantS)
		}
		if res.Evaluations != 217 {
			t.Errorf("grid evaluations %d", res.Evaluations)
		}
		// The fast evaluation agrees with the exact one within its bound.
		for k := 0; k < 5; k++ {
			var e Encoding
			for i := 1; i < 12; i++ {
				e[i] = math.Abs(r.NormFloat64())
			}
			sets := Decode(e, ws.xmin, ws.xmax)
			v, b := ws.approx(sets)
			if x := ws.exact(sets); math.Abs(v-x) > b {
				t.Fatalf("approx %v ± %v, exact %v", v, b, x)
			}
		}
	}
}

// TestEvaluationCounts checks the reference's counting: coordinate makes 1
// initial evaluation, 6/12/18 per improving iteration and 18 for the final
// one; hybrid adds a 27-point grid before it.
func TestEvaluationCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 30; trial++ {
		col, y := testColumn(r, 50+r.IntN(300), 2+r.IntN(2), trial%4 == 0)
		p, _ := fuzzy.NumericPartition(col, fuzzy.QuantileStyle)
		init, _ := p.Trapezoids()
		c, err := OptimizeFeature(col, y, init, Coordinate)
		if err != nil {
			t.Fatal(err)
		}
		if c.Evaluations < 19 || (c.Evaluations-19)%6 != 0 || c.Evaluations > 1+50*18 {
			t.Errorf("coordinate evaluations %d", c.Evaluations)
		}
		h, _ := OptimizeFeature(col, y, init, Hybrid)
		if h.Evaluations < 46 || (h.Evaluations-46)%6 != 0 || h.Evaluations > 28+25*18 {
			t.Errorf("hybrid evaluations %d", h.Evaluations)
		}
		g, _ := OptimizeFeature(col, y, init, Grid)
		for _, res := range []Result{c, h, g} {
			if res.Score < res.Initial-1e-9 {
				t.Errorf("score %v below initial %v", res.Score, res.Initial)
			}
		}
	}
}

func TestOptimizeNominalAndQ3(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	n := 200
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = []float64{r.NormFloat64(), float64(r.IntN(3))}
		if X[i][0] > 0.3 {
			y[i] = 1
		}
	}
	parts, err := fuzzy.FitPartitions(X, []bool{false, true}, fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	ref, evals, err := Optimize(X, y, parts, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if evals != 217 {
		t.Errorf("evaluations %d, want 217 (one numeric feature)", evals)
	}
	if len(ref[1].Terms) != len(parts[1].Terms) || ref[1].Terms[2] != parts[1].Terms[2] {
		t.Error("nominal partition changed")
	}
	xmin := ref[0].Min
	// Q3: with the reference, the column minimum is in no term.
	for k := range ref[0].Terms {
		if m := ref[0].Membership(k, xmin); m != 0 {
			t.Errorf("reference term %d at xmin: %v, want 0 (Q3)", k, m)
		}
	}
	fixed, _, _ := Optimize(X, y, parts, Config{ExtendLow: true})
	if m := fixed[0].Membership(0, xmin); m < 1-1e-9 {
		t.Errorf("fixed Low(xmin) = %v, want 1", m)
	}
	if fixed[0].Terms[0].Shape.A != xmin-fuzzy.Eps {
		t.Errorf("fixed Low.A = %v", fixed[0].Terms[0].Shape.A)
	}
}

func TestOptimizeErrors(t *testing.T) {
	parts, _ := fuzzy.FitPartitions([][]float64{{1}, {2}, {3}}, []bool{false}, fuzzy.QuantileStyle)
	cases := map[string]func() error{
		"no rows": func() error { _, _, err := Optimize(nil, nil, parts, Config{}); return err },
		"lengths": func() error { _, _, err := Optimize([][]float64{{1}, {2}}, []int{0}, parts, Config{}); return err },
		"NaN": func() error {
			_, _, err := Optimize([][]float64{{1}, {math.NaN()}}, []int{0, 1}, parts, Config{})
			return err
		},
		"negative y": func() error { _, _, err := Optimize([][]float64{{1}, {2}}, []int{0, -1}, parts, Config{}); return err },
		"width": func() error {
			_, _, err := Optimize([][]float64{{1, 2}, {2, 3}}, []int{0, 1}, parts, Config{})
			return err
		},
		"strategy": func() error { _, err := ParseStrategy("anneal"); return err },
		"feature lengths": func() error {
			_, err := OptimizeFeature([]float64{1, 2}, []int{0}, [3]fuzzy.Trapezoid{}, Grid)
			return err
		},
	}
	for name, f := range cases {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestIntegerMemberships: with the int64 emulation, ramp memberships are
// truncated to 0, so only plateau rows count in the separability index,
// and the grid evaluates every point exactly.
func TestIntegerMemberships(t *testing.T) {
	col := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	y := []int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	sets := [3]fuzzy.Trapezoid{{A: 0, B: 2, C: 3, D: 5}, {A: 3, B: 5, C: 6, D: 8}, {A: 6, B: 8, C: 9, D: 9}}
	ws := newWorkspace(len(col), 2)
	ws.load(col, y)
	float := ws.exact(sets)
	ws.truncate = true
	trunc := ws.exact(sets)
	// Plateaus: Low {2,3} class 0; Medium {5,6} class 1; High {8,9} class 1.
	want := 4/(2+1e-10) + 4/(2+1e-10) + 4/(2+1e-10)
	if trunc != want {
		t.Errorf("truncated SI %v, want %v", trunc, want)
	}
	if float == trunc {
		t.Error("truncation changed nothing")
	}
	X := make([][]float64, len(col))
	for i, v := range col {
		X[i] = []float64{v}
	}
	parts, _ := fuzzy.FitPartitions(X, []bool{false}, fuzzy.QuantileStyle)
	a, _, err := Optimize(X, y, parts, Config{IntegerMemberships: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Optimize(X, y, parts, Config{})
	t.Logf("int64 emulation: %+v; float: %+v", a[0].Terms, b[0].Terms)
}
