package fgrt

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// randomData builds n rows of d features (some integer-valued, so
// degenerate quantiles and ties between candidates occur) and c classes
// that depend on the first features.
func randomData(seed uint64, n, d, c int) ([][]float64, []int) {
	r := rand.New(rand.NewPCG(seed, 11))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			if j%3 == 2 {
				X[i][j] = float64(r.IntN(4))
			} else {
				X[i][j] = r.NormFloat64()
			}
		}
		s := X[i][0] + 0.5*X[i][1] + 0.3*r.NormFloat64()
		y[i] = int(math.Min(math.Max(math.Floor((s+1.5)/3*float64(c)), 0), float64(c-1)))
	}
	return X, y
}

// TestCacheMatchesReference checks that the incremental candidate cache
// gives the same trees as re-evaluating every node in every iteration (the
// reference's procedure), on random data and settings.
func TestCacheMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 40; trial++ {
		n, d, c := 30+r.IntN(200), 2+r.IntN(8), 2+r.IntN(3)
		X, y := randomData(uint64(trial), n, d, c)
		parts, err := fuzzy.FitPartitions(X, make([]bool, d), fuzzy.QuantileStyle)
		if err != nil {
			t.Fatal(err)
		}
		opt := GrowConfig{
			MaxRules:          1 + r.IntN(30),
			CoverageThreshold: []float64{0, 0.01, 0.05, 0.1, 0.3}[r.IntN(5)],
			MinImprovement:    []float64{0, 0.005, 0.01, 0.05}[r.IntN(4)],
			Patience:          1 + r.IntN(4),
			FixQ1:             r.IntN(2) == 0,
			FixQ2:             r.IntN(2) == 0,
		}
		if trial%4 == 3 {
			opt.EarlyStopThreshold = 0.05
		}
		fast, err := fitTree(X, y, c, parts, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := fitTree(X, y, c, parts, opt, true)
		if err != nil {
			t.Fatal(err)
		}
		if !sameNodes(fast.Nodes, slow.Nodes) || fast.RootPrediction != slow.RootPrediction || fast.EndedByBreak != slow.EndedByBreak {
			t.Fatalf("trial %d (%+v): cached and reference growth differ:\n%s\nvs\n%s", trial, opt,
				fast.Tree(learn.Schema{}), slow.Tree(learn.Schema{}))
		}
	}
}

func TestOneClassGivesSingleLeaf(t *testing.T) {
	X, _ := randomData(1, 50, 4, 2)
	y := make([]int, len(X))
	for i := range y {
		y[i] = 1
	}
	tr, _ := New(DefaultConfig())
	s := learn.Schema{Features: make([]learn.Feature, 4), Classes: []string{"a", "b"}}
	m, err := tr.FitModel(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.Leaves() != 1 || m.InternalNodes() != 0 {
		t.Errorf("one-class data: %d leaves, %d internal", m.Leaves(), m.InternalNodes())
	}
	for _, p := range m.Predict(X) {
		if p != 1 && p != -1 {
			t.Errorf("prediction %d", p)
		}
	}
	if m.RootPrediction != 1 || m.EndedByBreak {
		t.Errorf("root prediction %d (break %v), want 1", m.RootPrediction, m.EndedByBreak)
	}
}

// TestQ2StaleRoot: when growth ends by a break, the reference's root
// predicts -1 wherever it wins; FixQ2 gives it the majority class.
func TestQ2StaleRoot(t *testing.T) {
	// Two classes, one informative crisp feature: after the informative
	// split every gain is <= 0, so growth ends by patience.
	X := [][]float64{{0}, {0}, {0}, {1}, {1}, {1}, {1}}
	y := []int{0, 0, 0, 1, 1, 1, 1}
	parts := []fuzzy.Partition{{Nominal: true, Min: 0, Max: 1, Terms: []fuzzy.Term{
		{Name: "0", Crisp: true, Category: fuzzy.Category{Value: 0}},
		{Name: "1", Crisp: true, Category: fuzzy.Category{Value: 1}}}}}
	opt := GrowConfig{MaxRules: 10, MinImprovement: 0.01, Patience: 1}
	m, err := FitTree(X, y, 2, parts, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !m.EndedByBreak || m.RootPrediction != -1 {
		t.Fatalf("break %v root %d", m.EndedByBreak, m.RootPrediction)
	}
	// A value of neither category fires no child: the root decides.
	if p := m.Predict([][]float64{{7}}); p[0] != -1 {
		t.Errorf("reference predicts %d, want -1", p[0])
	}
	opt.FixQ2 = true
	m, _ = FitTree(X, y, 2, parts, opt)
	if p := m.Predict([][]float64{{7}}); p[0] != 1 {
		t.Errorf("fixed Q2 predicts %d, want 1", p[0])
	}
}

func sameNodes(a, b []Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if math.Float64bits(x.Gain) != math.Float64bits(y.Gain) {
			return false
		}
		x.Gain, y.Gain = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestRowPermutation: permuting the training rows (data without ties)
// leaves the tree and the predictions unchanged.
func TestRowPermutation(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 10; trial++ {
		n, d := 80+r.IntN(100), 2+r.IntN(5)
		X := make([][]float64, n)
		y := make([]int, n)
		for i := range X {
			X[i] = make([]float64, d)
			for j := range X[i] {
				X[i][j] = r.NormFloat64()
			}
			if X[i][0]+0.7*X[i][1]+0.5*r.NormFloat64() > 0 {
				y[i] = 1
			}
		}
		parts, _ := fuzzy.FitPartitions(X, make([]bool, d), fuzzy.QuantileStyle)
		opt := GrowConfig{MaxRules: 12, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3}
		a, err := FitTree(X, y, 2, parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		perm := r.Perm(n)
		Xp := make([][]float64, n)
		yp := make([]int, n)
		for i, p := range perm {
			Xp[i], yp[i] = X[p], y[p]
		}
		b, err := FitTree(Xp, yp, 2, parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		test, _ := randomData(uint64(100+trial), 200, d, 2)
		if !reflect.DeepEqual(a.Predict(test), b.Predict(test)) {
			t.Errorf("trial %d: predictions change under a row permutation", trial)
		}
		for i := range a.Nodes {
			if a.Nodes[i].Feature != b.Nodes[i].Feature || a.Nodes[i].Term != b.Nodes[i].Term || a.Nodes[i].Class != b.Nodes[i].Class {
				t.Errorf("trial %d: node %d differs", trial, i)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	X, y := randomData(2, 40, 3, 2)
	s := learn.Schema{Features: make([]learn.Feature, 3), Classes: []string{"a", "b"}}
	good := DefaultConfig()
	bad := []func(o *Config){
		func(o *Config) { o.MaxRules = 0 },
		func(o *Config) { o.CoverageThreshold = -0.1 },
		func(o *Config) { o.MinImprovement = -1 },
		func(o *Config) { o.MinImprovement = math.NaN() },
		func(o *Config) { o.Patience = 0 },
		func(o *Config) { o.EarlyStopThreshold = -1 },
		func(o *Config) { o.Style = 7 },
		func(o *Config) { o.Strategy = 9 },
	}
	for i, f := range bad {
		o := good
		f(&o)
		if _, err := New(o); err == nil {
			t.Errorf("bad option %d accepted", i)
		}
	}
	tr, _ := New(good)
	nanX := [][]float64{{1, 2, 3}, {math.NaN(), 1, 1}}
	cases := map[string]func() error{
		"mismatched lengths": func() error { _, err := tr.Fit(X, y[:10], s); return err },
		"empty":              func() error { _, err := tr.Fit(nil, nil, s); return err },
		"short row":          func() error { _, err := tr.Fit([][]float64{{1, 2}}, []int{0}, s); return err },
		"class out of range": func() error { _, err := tr.Fit(X[:2], []int{0, 5}, s); return err },
		"NaN in training": func() error {
			_, err := tr.Fit(nanX, []int{0, 1}, s)
			if err != nil && !strings.Contains(err.Error(), "row 1 column 0") {
				t.Errorf("NaN error %q does not name row 1 column 0", err)
			}
			return err
		},
		"prepared width": func() error {
			p, err := tr.Prepare(X, y, s)
			if err != nil {
				return nil
			}
			s2 := learn.Schema{Features: make([]learn.Feature, 2), Classes: s.Classes}
			_, err = p.Fit([][]float64{{1, 2}}, []int{0}, s2)
			return err
		},
		"FitTree no partitions": func() error { _, err := FitTree(X, y, 2, nil, good.GrowConfig); return err },
		"unknown term": func() error {
			p, _ := fuzzy.NumericPartition([]float64{1, 2, 3}, fuzzy.QuantileStyle)
			_, err := p.TermIndex("Huge")
			return err
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if err := f(); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestMissingAtPredict: a missing test value has membership 1 in every
// term (reference predict), so the row is still classified.
func TestMissingAtPredict(t *testing.T) {
	X, y := randomData(3, 120, 3, 2)
	parts, _ := fuzzy.FitPartitions(X, make([]bool, 3), fuzzy.QuantileStyle)
	m, err := FitTree(X, y, 2, parts, GrowConfig{MaxRules: 8, MinImprovement: 0.01, Patience: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Predict([][]float64{{math.NaN(), math.NaN(), math.NaN()}})
	if p[0] < 0 || p[0] > 1 {
		t.Errorf("prediction %d", p[0])
	}
	if p := m.Predict([][]float64{{1, 2}}); p[0] != -1 {
		t.Errorf("short row predicted %d, want -1", p[0])
	}
	pr := m.PredictProba([][]float64{{math.NaN(), 0, 1}, X[0], {1}})
	for _, row := range pr {
		s := 0.0
		for _, v := range row {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("probabilities sum to %v", s)
		}
	}
}

// TestClampOutOfRange: far outside the fitted range the reference gives
// membership 0 everywhere (the root may then predict), clamping maps the
// value to the range's edge.
func TestClampOutOfRange(t *testing.T) {
	X, y := randomData(4, 150, 2, 2)
	parts, _ := fuzzy.FitPartitions(X, make([]bool, 2), fuzzy.QuantileStyle)
	m, err := FitTree(X, y, 2, parts, GrowConfig{MaxRules: 6, MinImprovement: 0.01, Patience: 3})
	if err != nil {
		t.Fatal(err)
	}
	far := [][]float64{{1e6, 1e6}}
	ref := m.Predict(far)
	m.Clamp = true
	edge := [][]float64{{parts[0].Max, parts[1].Max}}
	if got, want := m.Predict(far), m.Predict(edge); got[0] != want[0] {
		t.Errorf("clamped prediction %d, edge prediction %d", got[0], want[0])
	}
	_ = ref
}

// TestFixQ1AllowsDeeperTrees: with the reference's Q1 no node deeper than
// 1 is ever split (depth <= 2); the fix lets deeper nodes split.
func TestFixQ1AllowsDeeperTrees(t *testing.T) {
	maxRef, maxFix := 0, 0
	for seed := uint64(0); seed < 10; seed++ {
		X, y := randomData(seed, 300, 6, 3)
		parts, _ := fuzzy.FitPartitions(X, make([]bool, 6), fuzzy.QuantileStyle)
		opt := GrowConfig{MaxRules: 40, MinImprovement: 0, Patience: 3}
		a, _ := FitTree(X, y, 3, parts, opt)
		opt.FixQ1 = true
		b, _ := FitTree(X, y, 3, parts, opt)
		maxRef, maxFix = max(maxRef, a.Depth()), max(maxFix, b.Depth())
	}
	if maxRef > 2 {
		t.Errorf("reference depth %d > 2", maxRef)
	}
	if maxFix <= 2 {
		t.Errorf("fixed Q1 never grows deeper than 2 (max %d)", maxFix)
	}
}

func TestRulesAndJSON(t *testing.T) {
	X, y := randomData(6, 200, 3, 2)
	s := learn.Schema{
		Features: []learn.Feature{{Name: "proline"}, {Name: "flavanoids"}, {Name: "hue"}},
		Classes:  []string{"neg", "pos"},
	}
	o := DefaultConfig()
	o.MaxRules = 6
	tr, _ := New(o)
	m, err := tr.FitModel(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	rules := m.Rules(s)
	if n := strings.Count(rules, "IF "); n != m.Leaves()+m.InternalNodes() {
		t.Errorf("%d rule lines, want %d:\n%s", n, m.Leaves()+m.InternalNodes(), rules)
	}
	if !strings.Contains(rules, " IS ") || !strings.Contains(rules, "THEN class ") || !strings.Contains(rules, "confidence") {
		t.Errorf("rules text:\n%s", rules)
	}
	c := m.Complexity()
	if c.Rules != m.Leaves() || c.Leaves != m.Leaves() || c.InternalNodes != m.InternalNodes() || c.Antecedents < c.Rules {
		t.Errorf("complexity %+v", c)
	}
	b, err := m.JSON(s)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if int(back["leaves"].(float64)) != m.Leaves() {
		t.Errorf("json leaves %v", back["leaves"])
	}
	if d := m.DescribePartitions(s); !strings.Contains(d, "proline") || !strings.Contains(d, "Medium") {
		t.Errorf("partitions:\n%s", d)
	}
}

// TestNominalFeatures: crisp categorical terms are legal candidates and
// print with the schema's category labels.
func TestNominalFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	n := 200
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		X[i] = []float64{float64(r.IntN(3)), r.NormFloat64()}
		if X[i][0] == 2 {
			y[i] = 1
		}
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "colour", Nominal: true, Categories: []string{"red", "green", "blue"}}, {Name: "x"}},
		Classes: []string{"a", "b"}}
	o := DefaultConfig()
	o.MaxRules = 3
	tr, _ := New(o)
	m, err := tr.FitModel(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Partitions[0].Terms) != 3 || !m.Partitions[0].Nominal {
		t.Fatalf("nominal partition %+v", m.Partitions[0])
	}
	if !strings.Contains(m.Rules(s), "colour IS blue") {
		t.Errorf("rules:\n%s", m.Rules(s))
	}
	if acc := learn.Accuracy(y, m.Predict(X)); acc != 1 {
		t.Errorf("accuracy %v on a crisp concept", acc)
	}
}

// TestEarlyStop: with an early-stop threshold the chosen child of the root
// is the first (feature, term) whose gain reaches it, not the best one.
func TestEarlyStop(t *testing.T) {
	X, y := randomData(12, 300, 5, 2)
	parts, _ := fuzzy.FitPartitions(X, make([]bool, 5), fuzzy.QuantileStyle)
	opt := GrowConfig{MaxRules: 2, Patience: 3, MinImprovement: 0}
	full, _ := FitTree(X, y, 2, parts, opt)
	opt.EarlyStopThreshold = 1e-9
	early, _ := FitTree(X, y, 2, parts, opt)
	// Feature 0 drives the label, so some early feature's Low or High has
	// positive gain; the early stop takes the first such candidate.
	if early.Nodes[1].Feature > full.Nodes[1].Feature ||
		(early.Nodes[1].Feature == full.Nodes[1].Feature && early.Nodes[1].Term > full.Nodes[1].Term) {
		t.Errorf("early stop chose (%d,%d) after the best (%d,%d)", early.Nodes[1].Feature, early.Nodes[1].Term,
			full.Nodes[1].Feature, full.Nodes[1].Term)
	}
	if early.Nodes[1].Gain < 1e-9 {
		t.Errorf("early gain %v below the threshold", early.Nodes[1].Gain)
	}
}

// TestDegenerateData: constant columns, a single row and tiny sets must
// fit and predict without panics, for FGRT and FGRT* with every strategy.
func TestDegenerateData(t *testing.T) {
	s := learn.Schema{Features: make([]learn.Feature, 3), Classes: []string{"a", "b"}}
	sets := map[string]struct {
		X [][]float64
		y []int
	}{
		"constant columns": {[][]float64{{1, 5, 0}, {1, 5, 0}, {1, 5, 0}, {1, 5, 0}}, []int{0, 1, 0, 1}},
		"single row":       {[][]float64{{1, 2, 3}}, []int{1}},
		"two rows":         {[][]float64{{1, 2, 3}, {4, 5, 6}}, []int{0, 1}},
	}
	for name, d := range sets {
		for _, optimize := range []bool{false, true} {
			for _, strat := range []partopt.Strategy{partopt.Grid, partopt.Coordinate, partopt.Hybrid} {
				o := DefaultConfig()
				o.Optimize, o.Strategy = optimize, strat
				tr, _ := New(o)
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s optimize=%v %v: panic %v", name, optimize, strat, r)
						}
					}()
					m, err := tr.FitModel(d.X, d.y, s)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					m.Predict(d.X)
					m.PredictProba(d.X)
					_ = m.Rules(s)
				}()
			}
		}
	}
}
