package fga

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

func smallConfig(seed uint64) Config {
	o := DefaultConfig()
	o.Generations = 20
	o.Population = 20
	o.Seed = seed
	return o
}

func fit(t *testing.T, o Config, X [][]float64, y []int, s learn.Schema) *Model {
	t.Helper()
	tr, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.FitModel(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMCCHandComputed(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []int
		c           int
		want        float64
	}{
		// sklearn's documented example: [+1,+1,+1,-1] vs [+1,-1,+1,+1].
		{"sklearn doc binary", []int{1, 1, 1, 0}, []int{1, 0, 1, 1}, 2, -1.0 / 3},
		{"perfect", []int{0, 1, 2, 1}, []int{0, 1, 2, 1}, 3, 1},
		{"inverted binary", []int{0, 1, 0, 1}, []int{1, 0, 1, 0}, 2, -1},
		{"constant prediction", []int{0, 1, 2, 1}, []int{1, 1, 1, 1}, 3, 0},
		{"constant truth", []int{2, 2, 2}, []int{0, 1, 2}, 3, 0},
		// M = [[1,1,0],[0,1,1],[1,0,1]]: t = p = (2,2,2), c = 3, s = 6:
		// (3*6 - 12) / sqrt((36-12)(36-12)) = 6/24.
		{"3-class cyclic", []int{0, 0, 1, 1, 2, 2}, []int{0, 1, 1, 2, 2, 0}, 3, 0.25},
		// M = [[2,1,0],[0,1,0],[0,1,0]]: t = (3,1,1), p = (2,3,0), c = 3,
		// s = 5: (15 - 9) / sqrt((25-13)(25-11)) = 6/sqrt(168).
		{"3-class skewed", []int{0, 0, 0, 1, 2}, []int{0, 0, 1, 1, 1}, 3, 6 / math.Sqrt(168)},
		// A predicted label outside 0..c-1 (an empty model's -1) is a class
		// of its own: M over {0,1,-1} = [[1,0,1],[0,1,0],[0,0,0]];
		// t = (2,1,0), p = (1,1,1), c = 2, s = 3: (6-3)/sqrt((9-3)(9-5)).
		{"unknown prediction", []int{0, 0, 1}, []int{0, -1, 1}, 2, 3 / math.Sqrt(24)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MCC(tc.truth, tc.pred, tc.c); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("MCC = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDecodePartition(t *testing.T) {
	// Low = [10,10,15,30], Ld = 30; Medium = [20,35,40,50], Md = 50;
	// High = [45,60,70,70]; gene 10 is never read. Rescaled from [10,70]
	// to [0,6]: v' = (v-10)/60*6.
	genes := []int32{10, 5, 5, 10, 5, 5, 5, 5, 10, 10, 77}
	sets, ok := decodePartition(genes, 3, 0, 6, false)
	if !ok {
		t.Fatal("partition rejected")
	}
	want := []fuzzy.Trapezoid{{A: 0, B: 0, C: 0.5, D: 2}, {A: 1, B: 2.5, C: 3, D: 4}, {A: 3.5, B: 5, C: 6, D: 6}}
	for k := range want {
		for _, pair := range [][2]float64{{sets[k].A, want[k].A}, {sets[k].B, want[k].B}, {sets[k].C, want[k].C}, {sets[k].D, want[k].D}} {
			if math.Abs(pair[0]-pair[1]) > 1e-12 {
				t.Fatalf("label %d = %+v, want %+v", k, sets[k], want[k])
			}
		}
	}
	// The first label's vertical left shoulder: 0 at the minimum in the
	// paper-era trapezoid, 1 with ex-fuzzy's 2026-06 epsilon (HeadTrapezoid).
	if got := sets[0].Membership(0); got != 0 {
		t.Errorf("paper-era Low(xmin) = %v, want 0", got)
	}
	head, _ := decodePartition(genes, 3, 0, 6, true)
	if got := head[0].Membership(0); got != 1 {
		t.Errorf("head Low(xmin) = %v, want 1", got)
	}
	if head[1] != sets[1] || head[2] != sets[2] {
		t.Errorf("head mode changed sets without a vertical left shoulder: %+v", head)
	}
	if _, ok := decodePartition([]int32{40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9}, 3, 0, 1, false); ok {
		t.Error("zero-width partition accepted")
	}
}

func TestDecodeRules(t *testing.T) {
	// 3 features, 2 labels (mfPerFeat = 7), 3 classes, 4 rules of 2 slots.
	l := newLayout(4, 2, 2, 3, 3, false)
	g := make([]int32, l.nVar)
	set := func(r int, f0, l0, f1, l1, cons int32) {
		g[r*2], g[r*2+1] = f0, f1
		g[l.labelOff+r*2], g[l.labelOff+r*2+1] = l0, l1
		g[l.consOff+r] = cons
	}
	set(0, 2, 1, 0, 0, 1)  // x3 High, x1 Low -> class 1
	set(1, 1, 0, 1, -1, 0) // x2 Low then x2 don't care: no antecedent -> dropped
	set(2, 0, 0, 2, 1, 1)  // duplicate of rule 0 in class 1 -> dropped
	set(3, 1, 1, 1, 0, 0)  // x2 High overwritten by x2 Low -> class 0
	got := decodeRules(&l, g)
	type rule struct {
		ants  []antecedent
		class int
	}
	var simple []rule
	for _, r := range got {
		simple = append(simple, rule{r.ants, r.class})
	}
	want := []rule{
		{[]antecedent{{1, 0}}, 0},
		{[]antecedent{{0, 0}, {2, 1}}, 1},
	}
	if !reflect.DeepEqual(simple, want) {
		t.Errorf("rules = %+v, want %+v", simple, want)
	}
	g[l.consOff+0], g[l.consOff+3] = -1, -1
	if got := decodeRules(&l, g); len(got) != 1 || got[0].class != 1 {
		t.Errorf("disabled consequents: got %+v", got)
	}
}

func TestSBXStaysInBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20000; trial++ {
		lo := float64(rng.IntN(5) - 1)
		hi := lo + float64(rng.IntN(100))
		x1 := lo + float64(rng.IntN(int(hi-lo)+1))
		x2 := lo + float64(rng.IntN(int(hi-lo)+1))
		if x1 == x2 || lo == hi {
			continue
		}
		eta := 0.5 + 30*rng.Float64()
		a, b := sbxPair(x1, x2, lo, hi, eta, rng.Float64(), rng.IntN(2) == 0)
		for _, v := range []float64{a, b} {
			if !(v >= lo && v <= hi) {
				t.Fatalf("sbx(%v, %v) in [%v, %v], eta %v -> %v", x1, x2, lo, hi, eta, v)
			}
			if iv := float64(int32(v)); iv < lo || iv > hi {
				t.Fatalf("truncated child %v out of [%v, %v]", iv, lo, hi)
			}
		}
	}
	// Whole-chromosome operator on a real layout.
	l := newLayout(15, 3, 3, 20, 2, false)
	p1, p2 := make([]int32, l.nVar), make([]int32, l.nVar)
	for trial := 0; trial < 500; trial++ {
		for j := range p1 {
			p1[j] = l.xl[j] + int32(rng.IntN(int(l.xu[j]-l.xl[j])+1))
			p2[j] = l.xl[j] + int32(rng.IntN(int(l.xu[j]-l.xl[j])+1))
		}
		c1, c2 := slices.Clone(p1), slices.Clone(p2)
		sbx(p1, p2, c1, c2, l.xl, l.xu, 3, rng)
		polynomialMutation(c1, l.xl, l.xu, 7, 0.5, rng)
		for j := range c1 {
			for _, v := range []int32{c1[j], c2[j]} {
				if v < l.xl[j] || v > l.xu[j] {
					t.Fatalf("gene %d = %d out of [%d, %d]", j, v, l.xl[j], l.xu[j])
				}
			}
		}
	}
}

func TestPolynomialMutationStaysInBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20000; trial++ {
		lo := float64(rng.IntN(5) - 1)
		hi := lo + 1 + float64(rng.IntN(100))
		x := lo + float64(rng.IntN(int(hi-lo)+1))
		eta := 0.5 + 30*rng.Float64()
		u := rng.Float64()
		if trial%50 == 0 {
			u = []float64{0, 0.5, math.Nextafter(1, 0)}[trial/50%3]
		}
		v := pmValue(x, lo, hi, eta, u)
		if !(v >= lo && v <= hi) {
			t.Fatalf("pm(%v) in [%v, %v], eta %v, u %v -> %v", x, lo, hi, eta, u, v)
		}
		if r := math.RoundToEven(v); r < lo || r > hi {
			t.Fatalf("rounded %v out of bounds", r)
		}
	}
}

func TestBestFitnessNeverDecreases(t *testing.T) {
	X, y, s := ringLike(400, 6, 3)
	m := fit(t, smallConfig(5), X, y, s)
	h := m.History()
	if len(h) != 20 {
		t.Fatalf("history has %d generations, want 20", len(h))
	}
	for g := 1; g < len(h); g++ {
		if h[g] < h[g-1] {
			t.Fatalf("best MCC fell from %v to %v at generation %d", h[g-1], h[g], g)
		}
	}
	if h[len(h)-1] != m.Fitness() {
		t.Errorf("last history entry %v != model fitness %v", h[len(h)-1], m.Fitness())
	}
}

func TestModelReproducesSelectedFitness(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		X, y, s := ringLike(500, 5, seed)
		// a three-class variant: relabel a third of the rows by a feature sign
		y3 := slices.Clone(y)
		for i := range y3 {
			if i%3 == 0 && X[i][0] > 0 {
				y3[i] = 2
			}
		}
		s3 := s
		s3.Classes = []string{"a", "b", "c"}
		for _, c := range []struct {
			y []int
			s learn.Schema
		}{{y, s}, {y3, s3}} {
			m := fit(t, smallConfig(seed), X, c.y, c.s)
			got := MCC(c.y, m.Predict(X), c.s.NumClasses())
			if got != m.Fitness() {
				t.Errorf("seed %d, %d classes: training MCC from Predict %v != selected fitness %v",
					seed, c.s.NumClasses(), got, m.Fitness())
			}
			if m.Fitness() <= 0 {
				t.Errorf("seed %d: fitness %v, expected a useful model", seed, m.Fitness())
			}
		}
	}
}

func TestWorkersDoNotChangeResults(t *testing.T) {
	X, y, s := ringLike(600, 8, 9)
	var ref *Model
	for _, w := range []int{1, 4, 3} {
		o := smallConfig(11)
		o.Workers = w
		m := fit(t, o, X, y, s)
		if ref == nil {
			ref = m
			continue
		}
		if !reflect.DeepEqual(m.History(), ref.History()) || m.Rules(s) != ref.Rules(s) ||
			!reflect.DeepEqual(m.Predict(X), ref.Predict(X)) || !reflect.DeepEqual(m.partitions, ref.partitions) {
			t.Errorf("workers %d differ from workers 1:\n%s\nvs\n%s", w, m.Rules(s), ref.Rules(s))
		}
	}
}

func TestSeedDeterminism(t *testing.T) {
	X, y, s := ringLike(300, 4, 2)
	a := fit(t, smallConfig(7), X, y, s)
	b := fit(t, smallConfig(7), X, y, s)
	if a.Rules(s) != b.Rules(s) || !reflect.DeepEqual(a.History(), b.History()) {
		t.Error("same seed gave different models")
	}
	c := fit(t, smallConfig(8), X, y, s)
	if reflect.DeepEqual(a.History(), c.History()) && a.Rules(s) == c.Rules(s) {
		t.Error("different seeds gave identical runs")
	}
}

func TestRulesAndComplexity(t *testing.T) {
	X, y, s := ringLike(400, 5, 4)
	m := fit(t, smallConfig(2), X, y, s)
	text := m.Rules(s)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	c := m.Complexity()
	if c.Rules == 0 || len(lines) != c.Rules || c.Leaves != c.Rules || c.InternalNodes != 0 {
		t.Fatalf("complexity %+v vs %d printed rules:\n%s", c, len(lines), text)
	}
	ants := 0
	for _, line := range lines {
		if !strings.HasPrefix(line, "IF ") || !strings.Contains(line, " THEN class ") || !strings.Contains(line, "(dominance score ") {
			t.Errorf("bad rule line %q", line)
		}
		ants += strings.Count(line, " IS ")
	}
	if ants != c.Antecedents {
		t.Errorf("printed %d antecedents, complexity says %d", ants, c.Antecedents)
	}
	for _, r := range m.RuleList() {
		if len(r.Antecedents) > 3 || r.DominanceScore < 0.01 {
			t.Errorf("rule %+v violates nAnts or the tolerance", r)
		}
	}
	t.Logf("rules:\n%s", text)
}

func TestDegenerateInputs(t *testing.T) {
	X, y, s := ringLike(120, 3, 5)
	t.Run("one class", func(t *testing.T) {
		y1 := make([]int, len(y))
		tr, _ := New(smallConfig(1))
		m, err := tr.Fit(X, y1, s)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range m.Predict(X) {
			if p != 0 {
				t.Fatalf("row %d predicted %d, want the only class 0", i, p)
			}
		}
		if c := m.Complexity(); c != (learn.Complexity{}) {
			t.Errorf("complexity %+v, want no rules", c)
		}
	})
	t.Run("class absent", func(t *testing.T) {
		s3 := s
		s3.Classes = []string{"a", "unused", "b"}
		y2 := slices.Clone(y)
		for i := range y2 {
			y2[i] *= 2
		}
		m := fit(t, smallConfig(1), X, y2, s3)
		for _, p := range m.Predict(X) {
			if p != 0 && p != 2 {
				t.Fatalf("predicted %d, only classes 0 and 2 exist", p)
			}
		}
		if got := MCC(y2, m.Predict(X), 3); got != m.Fitness() {
			t.Errorf("MCC %v != fitness %v", got, m.Fitness())
		}
	})
	t.Run("constant feature", func(t *testing.T) {
		Xc := make([][]float64, len(X))
		for i := range X {
			Xc[i] = []float64{X[i][0], 3.5, X[i][2]}
		}
		m := fit(t, smallConfig(1), Xc, y, s)
		if got := MCC(y, m.Predict(Xc), 2); got != m.Fitness() {
			t.Errorf("MCC %v != fitness %v", got, m.Fitness())
		}
	})
	t.Run("all features constant", func(t *testing.T) {
		Xc := make([][]float64, len(X))
		for i := range X {
			Xc[i] = []float64{1, 2, 3}
		}
		m := fit(t, smallConfig(1), Xc, y, s)
		if m.Fitness() != 0 {
			t.Errorf("fitness %v on constant data", m.Fitness())
		}
		_ = m.Predict(Xc)
		_ = m.Rules(s)
	})
	t.Run("one row per class", func(t *testing.T) {
		m := fit(t, smallConfig(1), X[:2], y[:2], s)
		_ = m.Predict(X)
	})
	t.Run("one feature", func(t *testing.T) {
		X1 := make([][]float64, len(X))
		for i := range X {
			X1[i] = []float64{X[i][0]}
		}
		s1 := learn.Schema{Features: s.Features[:1], Classes: s.Classes}
		m := fit(t, smallConfig(1), X1, y, s1)
		for _, r := range m.RuleList() {
			if len(r.Antecedents) != 1 {
				t.Errorf("rule %+v on one feature", r)
			}
		}
	})
	errCases := []struct {
		name string
		X    [][]float64
		y    []int
		s    learn.Schema
		want string
	}{
		{"empty", nil, nil, s, "no training rows"},
		{"length mismatch", X, y[:5], s, "labels"},
		{"NaN", append([][]float64{{math.NaN(), 0, 0}}, X[1:]...), y, s, "NaN"},
		{"Inf", append([][]float64{{math.Inf(1), 0, 0}}, X[1:]...), y, s, "infinite"},
		{"bad class", X, append([]int{7}, y[1:]...), s, "class index"},
		{"no features", [][]float64{{}, {}}, []int{0, 1}, learn.Schema{Classes: s.Classes}, "no input features"},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			tr, _ := New(smallConfig(1))
			_, err := tr.Fit(tc.X, tc.y, tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestPredictNaNAndEmptyModel(t *testing.T) {
	X, y, s := ringLike(200, 3, 6)
	m := fit(t, smallConfig(3), X, y, s)
	for _, p := range m.Predict([][]float64{{math.NaN(), math.NaN(), math.NaN()}}) {
		if p < 0 || p > 1 {
			t.Errorf("NaN row predicted %d", p)
		}
	}
	empty := &Model{labels: 3}
	if got := empty.Predict(X[:2]); got[0] != -1 || got[1] != -1 {
		t.Errorf("empty model predicted %v, want -1s", got)
	}
	if c := empty.Complexity(); c != (learn.Complexity{}) {
		t.Errorf("empty complexity %+v", c)
	}
}

func TestOptionsValidation(t *testing.T) {
	mods := []func(*Config){
		func(o *Config) { o.Rules = 0 },
		func(o *Config) { o.Antecedents = 0 },
		func(o *Config) { o.Labels = 1 },
		func(o *Config) { o.Tolerance = -1 },
		func(o *Config) { o.Tolerance = math.NaN() },
		func(o *Config) { o.Generations = 0 },
		func(o *Config) { o.Population = 1 },
		func(o *Config) { o.CrossoverProb = 1.5 },
		func(o *Config) { o.SBXEta = 0 },
		func(o *Config) { o.MutationEta = math.Inf(1) },
		func(o *Config) { o.Patience = -1 },
		func(o *Config) { o.Workers = -2 },
	}
	for i, mod := range mods {
		o := DefaultConfig()
		mod(&o)
		if _, err := New(o); err == nil {
			t.Errorf("case %d: invalid options %+v accepted", i, o)
		}
	}
	if _, err := New(DefaultConfig()); err != nil {
		t.Errorf("defaults rejected: %v", err)
	}
}

func TestPatienceStopsEarly(t *testing.T) {
	X, y, s := ringLike(300, 4, 8)
	o := smallConfig(4)
	o.Generations = 200
	o.Patience = 3
	m := fit(t, o, X, y, s)
	if n := len(m.History()); n >= 200 {
		t.Errorf("ran %d generations despite patience 3", n)
	}
	if got := MCC(y, m.Predict(X), 2); math.Abs(got-m.Fitness()) > 1e-12 {
		t.Errorf("MCC %v != fitness %v", got, m.Fitness())
	}
}

// TestApplyMembershipMatchesTrapezoid checks that the sorted-column kernel
// gives, bit for bit, fuzzy.Trapezoid.Membership's values and products,
// including degenerate sets, ties in the data and corners on data values.
func TestApplyMembershipMatchesTrapezoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 300
	X := make([][]float64, n)
	for i := range X {
		X[i] = []float64{float64(rng.IntN(20)) / 4, rng.NormFloat64() * 1e6}
	}
	y := make([]int, n)
	p := newProblem(X, y, 1, DefaultConfig(), newSpreader(2, nil), nil)
	for trial := 0; trial < 3000; trial++ {
		f := trial % 2
		pick := func() float64 {
			if rng.IntN(3) == 0 {
				return X[rng.IntN(n)][f]
			}
			return p.xmin[f] + (p.xmax[f]-p.xmin[f])*(1.2*rng.Float64()-0.1)
		}
		c := []float64{pick(), pick(), pick(), pick()}
		slices.Sort(c)
		switch trial % 7 {
		case 0:
			c[1] = c[0]
		case 1:
			c[3] = c[2]
		case 2:
			c[1], c[2], c[3] = c[0], c[0], c[0]
		case 3:
			c[2] = c[1]
		}
		tr := fuzzy.Trapezoid{A: c[0], B: c[1], C: c[2], D: c[3]}
		phi := make([]float64, n)
		p.applyMembership(f, tr, phi, true)
		for i := range phi {
			if want := tr.Membership(X[i][f]); math.Float64bits(phi[i]) != math.Float64bits(want) {
				t.Fatalf("%+v at %v: kernel %v, Membership %v", tr, X[i][f], phi[i], want)
			}
		}
		prev := slices.Clone(phi)
		tr2 := fuzzy.Trapezoid{A: tr.A - 0.5, B: tr.B, C: tr.C + 0.25, D: tr.D + 1}
		p.applyMembership(f, tr2, phi, false)
		for i := range phi {
			if want := prev[i] * tr2.Membership(X[i][f]); math.Float64bits(phi[i]) != math.Float64bits(want) {
				t.Fatalf("product at row %d: kernel %v, want %v", i, phi[i], want)
			}
		}
	}
}
