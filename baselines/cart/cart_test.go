package cart

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

func mustTrainer(t testing.TB, p Config) *Trainer {
	t.Helper()
	tr, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func namedSchema(names []string, classes ...string) learn.Schema {
	s := learn.Schema{Classes: classes}
	for _, n := range names {
		s.Features = append(s.Features, learn.Feature{Name: n})
	}
	return s
}

// ringData is a two-class problem with a nonlinear boundary: class 1 inside
// a ring of the first two features, the other d-2 columns are noise.
func ringData(n, d int, seed uint64) ([][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		row := make([]float64, d)
		for j := range row {
			row[j] = rng.Float64()*2 - 1
		}
		r := math.Hypot(row[0], row[1])
		if r > 0.4 && r < 0.8 {
			y[i] = 1
		}
		X[i] = row
	}
	return X, y
}

func TestParamsValidation(t *testing.T) {
	base := PaperConfig(Gini)
	cases := []struct {
		name   string
		modify func(*Config)
	}{
		{"criterion", func(p *Config) { p.Criterion = 7 }},
		{"max_depth", func(p *Config) { p.MaxDepth = -1 }},
		{"min_samples_split", func(p *Config) { p.MinSamplesSplit = 1 }},
		{"min_samples_leaf", func(p *Config) { p.MinSamplesLeaf = 0 }},
		{"min_impurity_decrease", func(p *Config) { p.MinImpurityDecrease = -0.5 }},
		{"min_impurity_decrease NaN", func(p *Config) { p.MinImpurityDecrease = math.NaN() }},
		{"max_features", func(p *Config) { p.MaxFeatures = -2 }},
		{"ccp_alpha", func(p *Config) { p.CCPAlpha = -1e-9 }},
		{"ccp_alpha NaN", func(p *Config) { p.CCPAlpha = math.NaN() }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := base
			tc.modify(&p)
			if _, err := New(p); err == nil {
				t.Fatalf("New accepted %+v", p)
			}
		})
	}
	if _, err := New(base); err != nil {
		t.Fatalf("paper params rejected: %v", err)
	}
	if _, err := ParseCriterion("gain_ratio"); err == nil {
		t.Error("ParseCriterion accepted gain_ratio")
	}
}

func TestBadInputErrors(t *testing.T) {
	s := namedSchema([]string{"a", "b"}, "n", "p")
	good := [][]float64{{0, 1}, {1, 0}, {2, 1}}
	cases := []struct {
		name   string
		X      [][]float64
		y      []int
		schema learn.Schema
		params Config
		want   string
	}{
		{"empty", nil, nil, s, PaperConfig(Gini), "no training rows"},
		{"length mismatch", good, []int{0, 1}, s, PaperConfig(Gini), "labels"},
		{"NaN", [][]float64{{0, math.NaN()}, {1, 0}}, []int{0, 1}, s, PaperConfig(Gini), "missing"},
		{"Inf", [][]float64{{0, math.Inf(1)}, {1, 0}}, []int{0, 1}, s, PaperConfig(Gini), "not finite"},
		{"float32 overflow", [][]float64{{0, 1e300}, {1, 0}}, []int{0, 1}, s, PaperConfig(Gini), "not finite"},
		{"class out of range", good, []int{0, 1, 2}, s, PaperConfig(Gini), "class index"},
		{"no features", [][]float64{{}, {}}, []int{0, 1}, namedSchema(nil, "n", "p"), PaperConfig(Gini), "no features"},
		{"max_features too large", good, []int{0, 1, 0}, s, Config{MinSamplesSplit: 2, MinSamplesLeaf: 1, MaxFeatures: 3}, "max_features"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustTrainer(t, tc.params).Fit(tc.X, tc.y, tc.schema)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := mustTrainer(t, PaperConfig(Gini)).Fit(nil, nil, s); !errors.Is(err, learn.ErrNoRows) {
		t.Errorf("empty data error %v does not wrap learn.ErrNoRows", err)
	}
}

// TestDegenerateDataGivesOneLeaf covers data sklearn fits as a single leaf.
func TestDegenerateDataGivesOneLeaf(t *testing.T) {
	s := namedSchema([]string{"a", "b"}, "n", "p", "q")
	cases := []struct {
		name      string
		X         [][]float64
		y         []int
		params    Config
		wantClass int
	}{
		{"constant columns", [][]float64{{1, 2}, {1, 2}, {1, 2}, {1, 2}, {1, 2}, {1, 2}}, []int{0, 1, 1, 0, 1, 2}, PaperConfig(Gini), 1},
		{"near-constant below FEATURE_THRESHOLD", [][]float64{{1, 2}, {1 + 1e-8, 2}, {1, 2 + 1e-8}, {1, 2}, {1, 2}, {1, 2}}, []int{0, 1, 1, 0, 2, 2}, PaperConfig(Entropy), 0},
		{"one class", [][]float64{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}, []int{2, 2, 2, 2, 2, 2}, PaperConfig(Gini), 2},
		{"min_samples_leaf larger than data", [][]float64{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []int{0, 1, 0, 1}, Config{MinSamplesSplit: 2, MinSamplesLeaf: 10}, 0},
		{"fewer rows than min_samples_split", [][]float64{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []int{1, 0, 1, 2}, PaperConfig(Gini), 1},
		{"single row", [][]float64{{0, 1}}, []int{2}, DefaultConfig(), 2},
		{"huge min_impurity_decrease", [][]float64{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []int{0, 0, 1, 1}, Config{MinSamplesSplit: 2, MinSamplesLeaf: 1, MinImpurityDecrease: 10}, 0},
		{"huge ccp_alpha", [][]float64{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []int{0, 0, 1, 1}, Config{MinSamplesSplit: 2, MinSamplesLeaf: 1, CCPAlpha: 10}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := mustTrainer(t, tc.params).FitTree(tc.X, tc.y, s)
			if err != nil {
				t.Fatal(err)
			}
			if tree.NodeCount() != 1 || tree.NLeaves() != 1 || tree.Depth() != 0 {
				t.Fatalf("got %d nodes, %d leaves, depth %d; want a single leaf", tree.NodeCount(), tree.NLeaves(), tree.Depth())
			}
			for i, p := range tree.Predict(tc.X) {
				if p != tc.wantClass {
					t.Fatalf("row %d predicted %d, want %d", i, p, tc.wantClass)
				}
			}
			want := learn.Complexity{Rules: 1, Leaves: 1}
			if c := tree.Complexity(); c != want {
				t.Errorf("complexity %+v, want %+v", c, want)
			}
			if r := tree.Rules(s); r != "IF TRUE THEN class "+s.Classes[tc.wantClass]+"\n" {
				t.Errorf("rules %q", r)
			}
		})
	}
}

// TestFullyGrownTreeFitsDistinctRows: with min_samples_leaf 1 and no other
// limit, every set of distinct rows (further apart than FEATURE_THRESHOLD)
// is fitted perfectly.
func TestFullyGrownTreeFitsDistinctRows(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		d, c := 1+rng.IntN(5), 2+rng.IntN(4)
		n := min(20+rng.IntN(200), int(math.Pow(30, float64(d)))/2) // room for distinct rows
		seen := map[[5]int]bool{}
		var X [][]float64
		var y []int
		for len(X) < n {
			var key [5]int
			row := make([]float64, d)
			for j := range row {
				key[j] = rng.IntN(30)
				row[j] = float64(key[j]) * 0.37
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			X = append(X, row)
			y = append(y, rng.IntN(c))
		}
		s := schemaFor(d, y)
		for len(s.Classes) < c {
			s.Classes = append(s.Classes, "extra")
		}
		for _, crit := range []Criterion{Gini, Entropy} {
			tree, err := mustTrainer(t, Config{Criterion: crit, MinSamplesSplit: 2, MinSamplesLeaf: 1, RandomState: uint32(seed)}).FitTree(X, y, s)
			if err != nil {
				t.Fatal(err)
			}
			if acc := learn.Accuracy(y, tree.Predict(X)); acc != 1 {
				t.Errorf("seed %d %v: training accuracy %v, want 1", seed, crit, acc)
			}
			for i := range tree.Feature {
				if tree.IsLeaf(i) && tree.Impurity[i] > epsilon {
					t.Errorf("seed %d %v: leaf %d impure (%v)", seed, crit, i, tree.Impurity[i])
				}
			}
		}
	}
}

// TestTreeInvariants checks structural facts on random data: counts add up,
// children sit on the right side of their parent's threshold, probabilities
// agree with predictions, the complexity matches the arrays, pruning paths
// have nondecreasing alphas and fits are deterministic and goroutine-safe.
func TestTreeInvariants(t *testing.T) {
	X, y := ringData(600, 5, 3)
	s := namedSchema([]string{"a", "b", "c", "d", "e"}, "out", "in")
	for _, p := range []Config{PaperConfig(Gini), PaperConfig(Entropy), {MinSamplesSplit: 2, MinSamplesLeaf: 1, MaxDepth: 4, MaxFeatures: 2, RandomState: 5}} {
		tr := mustTrainer(t, p)
		tree, err := tr.FitTree(X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		depth := tree.nodeDepths()
		leaves, antecedents := 0, 0
		for i := range tree.Feature {
			v := tree.NodeValue(i)
			if sum := v[0] + v[1]; sum != float64(tree.NodeSamples[i]) {
				t.Errorf("node %d value sum %v != samples %d", i, sum, tree.NodeSamples[i])
			}
			if tree.IsLeaf(i) {
				leaves++
				antecedents += depth[i]
				if tree.NodeSamples[i] < p.MinSamplesLeaf {
					t.Errorf("leaf %d has %d samples", i, tree.NodeSamples[i])
				}
				continue
			}
			l, r := tree.ChildrenLeft[i], tree.ChildrenRight[i]
			if tree.NodeSamples[l]+tree.NodeSamples[r] != tree.NodeSamples[i] || l != i+1 {
				t.Errorf("node %d children %d,%d inconsistent", i, l, r)
			}
		}
		if p.MaxDepth > 0 && tree.Depth() > p.MaxDepth {
			t.Errorf("depth %d exceeds max_depth %d", tree.Depth(), p.MaxDepth)
		}
		want := learn.Complexity{Rules: leaves, Antecedents: antecedents, Leaves: leaves, InternalNodes: tree.NodeCount() - leaves}
		if c := tree.Complexity(); c != want || leaves != tree.NLeaves() {
			t.Errorf("complexity %+v, want %+v", c, want)
		}
		if got := strings.Count(tree.Rules(s), "\n"); got != leaves {
			t.Errorf("%d rule lines for %d leaves", got, leaves)
		}
		pred := tree.Predict(X)
		for i, pr := range tree.PredictProba(X) {
			if math.Abs(pr[0]+pr[1]-1) > 1e-12 || (pr[1] > pr[0]) != (pred[i] == 1) {
				t.Fatalf("row %d: proba %v disagrees with prediction %d", i, pr, pred[i])
			}
		}
		alphas, imps := tree.PruningPath()
		for i := 1; i < len(alphas); i++ {
			if alphas[i] < alphas[i-1] || imps[i] < imps[i-1]-1e-15 {
				t.Errorf("pruning path not monotone at %d: %v %v", i, alphas, imps)
				break
			}
		}
		if tree.Prune(alphas[len(alphas)-1]).NodeCount() != 1 {
			t.Error("pruning at the last path alpha should leave the root alone")
		}

		// Deterministic and safe under concurrent fits.
		var wg sync.WaitGroup
		trees := make([]*Tree, 4)
		for g := range trees {
			wg.Add(1)
			go func() {
				defer wg.Done()
				trees[g], _ = tr.FitTree(X, y, s)
			}()
		}
		wg.Wait()
		for g, other := range trees {
			if !reflect.DeepEqual(other, tree) {
				t.Errorf("concurrent fit %d differs", g)
			}
		}
	}
}

func TestRulesFormat(t *testing.T) {
	X := [][]float64{{0.1, 5}, {0.2, 6}, {0.3, 5}, {0.9, 1}, {1.0, 9}, {1.1, 1}, {1.2, 9}}
	y := []int{0, 0, 0, 1, 2, 1, 2}
	s := namedSchema([]string{"petal_width", "sepal_length"}, "setosa", "versicolor", "virginica")
	tree, err := mustTrainer(t, Config{MinSamplesSplit: 2, MinSamplesLeaf: 1}).FitTree(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "IF petal_width <= 0.6 THEN class setosa\n" +
		"IF petal_width > 0.6 AND sepal_length <= 5 THEN class versicolor\n" +
		"IF petal_width > 0.6 AND sepal_length > 5 THEN class virginica\n"
	if got := tree.Rules(s); got != want {
		t.Errorf("rules:\n%s\nwant:\n%s", got, want)
	}
	want2 := learn.Complexity{Rules: 3, Antecedents: 5, Leaves: 3, InternalNodes: 2}
	if c := tree.Complexity(); c != want2 {
		t.Errorf("complexity %+v, want %+v", c, want2)
	}
}

func BenchmarkFitGiniPaperRing(b *testing.B) {
	X, y := ringData(5920, 20, 1)
	names := make([]string, 20)
	s := namedSchema(names, "out", "in")
	tr := mustTrainer(b, PaperConfig(Gini))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := tr.Fit(X, y, s); err != nil {
			b.Fatal(err)
		}
	}
}
