package ripper

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// handSpace builds a condition space from explicit cover sets over n rows.
func handSpace(n int, covers ...[]int) *space {
	sp := &space{nRows: n, all: newBitset(n), lg: newLog2Table(n)}
	for i := 0; i < n; i++ {
		sp.all.set(i)
	}
	for c, rows := range covers {
		b := newBitset(n)
		for _, r := range rows {
			b.set(r)
		}
		sp.conds = append(sp.conds, cond{feature: c, code: 0})
		sp.cover = append(sp.cover, b)
	}
	return sp
}

func rowSet(n int, rows ...int) bitset {
	b := newBitset(n)
	for _, r := range rows {
		b.set(r)
	}
	return b
}

func TestGrowRuleHand(t *testing.T) {
	// rows 0..5, positives {0,1,2}, negatives {3,4,5}
	// A covers {0,1,2,3}, B covers {0,1,4}, C covers {0,1,2,4,5}
	sp := handSpace(6, []int{0, 1, 2, 3}, []int{0, 1, 4}, []int{0, 1, 2, 4, 5})
	b := newBinaryRipper(sp, binaryParams{k: 2, pruneSize: 0.33, dlAllowance: 64, alpha: 1}, rowSet(6, 0, 1, 2), rand.New(rand.NewPCG(1, 2)))
	// step 1 from (p0,n0) = (3,3):
	//   A: (3,1) → 3·log2(7/5) = 1.456; B: (2,1) → 0.785; C: (3,2) → 3·log2(7/6) = 0.667 → A
	// step 2 from (3,1) inside A:
	//   A: (3,1) → 0; B: (2,0) → 0.644; C: (3,0) → 3·log2(5/4) = 0.966 → C; no negative left
	r := b.growRule(nil, b.pos, b.neg)
	if !slices.Equal(r, rule{0, 2}) {
		t.Fatalf("grown rule %v, want [A C] = [0 2]", r)
	}
	// limit of one condition stops after A
	b.p.maxRuleConds = 1
	if r := b.growRule(nil, b.pos, b.neg); !slices.Equal(r, rule{0}) {
		t.Errorf("with max_rule_conds=1 got %v, want [0]", r)
	}
}

func TestPruneRuleHand(t *testing.T) {
	// rule [A C] evaluated on a prune set with positives {0,1,2}, negatives {3,4,5}:
	//   [A C] covers {0,1,2} → (p,n) = (3,0): grow metric (3+1)/(3+1) = 1
	//   [A]   covers {0,1,2,3} → (3,1): (3−1+1)/(3+1+1) = 0.6
	// keep [A C]. Accuracy metric: [A C] (3 + 3)/6 = 1, [A] (3 + 2)/6 = 0.833 → [A C].
	sp := handSpace(6, []int{0, 1, 2, 3}, []int{0, 1, 4}, []int{0, 1, 2, 4, 5})
	b := newBinaryRipper(sp, binaryParams{k: 2, pruneSize: 0.33, dlAllowance: 64, alpha: 1}, rowSet(6, 0, 1, 2), rand.New(rand.NewPCG(1, 2)))
	for _, acc := range []bool{false, true} {
		if r := b.pruneRule(rule{0, 2}, b.pos, b.neg, acc); !slices.Equal(r, rule{0, 2}) {
			t.Errorf("accuracy=%v: pruned to %v, want [0 2]", acc, r)
		}
	}
	// ties go to the shorter prefix: both prefixes of [A A] cover {0,1,2,3}
	// → equal values → [A].
	if r := b.pruneRule(rule{0, 0}, b.pos, b.neg, false); !slices.Equal(r, rule{0}) {
		t.Errorf("tie: pruned to %v, want [0]", r)
	}
	// prune set with negatives {3,4,5} only: [B A] covers {0,1} → (0,0) →
	// (0+1)/(0+1) = 1; [B] covers {4} → (0−1+1)/(0+1+1) = 0 → keep [B A].
	if r := b.pruneRule(rule{1, 0}, rowSet(6), rowSet(6, 3, 4, 5), false); !slices.Equal(r, rule{1, 0}) {
		t.Errorf("negative-only prune set: got %v, want [1 0]", r)
	}
}

func TestBestSubsetHand(t *testing.T) {
	// 6 rows, positives {0,1,2}; rule X = [A C] covers {0,1,2}, and a
	// duplicate of it adds theory bits without changing exceptions, so the
	// second copy is dropped (d2 = d1 + bits > d1).
	sp := handSpace(6, []int{0, 1, 2, 3}, []int{0, 1, 4}, []int{0, 1, 2, 4, 5})
	b := newBinaryRipper(sp, binaryParams{k: 2, pruneSize: 0.33, dlAllowance: 64, alpha: 1}, rowSet(6, 0, 1, 2), rand.New(rand.NewPCG(1, 2)))
	kept, dl := b.bestSubset([]rule{{0, 2}, {0, 2}})
	if len(kept) != 1 {
		t.Fatalf("kept %d rules, want 1", len(kept))
	}
	// DL = theoryBits(2 of 3 conds) + log2 C(3,0) + log2 C(3,0)
	//    = 0.5·(1 + 2·log2(1.5) + 1·log2 3) = 0.5·(1 + 1.169925 + 1.584963) = 1.877444
	if !near(dl, 1.8774437510817346, 1e-12) {
		t.Errorf("best-subset DL = %.15g, want 1.877444", dl)
	}
}

// blobs makes a dataset whose class is decided by nominal column 0 (codes
// 0..3 → class code%nClasses) with numeric noise columns.
func separable(n, nClasses int, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		cat := rng.IntN(2 * nClasses)
		X[i] = []float64{float64(cat), rng.NormFloat64(), float64(rng.IntN(100))}
		y[i] = cat % nClasses
	}
	s := learn.Schema{
		Features: []learn.Feature{
			{Name: "kind", Nominal: true, Categories: []string{"a", "b", "c", "d", "e", "f"}},
			{Name: "noise"}, {Name: "count"},
		},
	}
	for c := 0; c < nClasses; c++ {
		s.Classes = append(s.Classes, string(rune('P'+c)))
	}
	return X, y, s
}

func fitDefault(t *testing.T, X [][]float64, y []int, s learn.Schema, seed int64) learn.Model {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Seed = seed
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Fit(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSeparableLearnedExactly(t *testing.T) {
	for _, nc := range []int{2, 3} {
		X, y, s := separable(300, nc, 7)
		m := fitDefault(t, X, y, s, 1)
		if acc := learn.Accuracy(y, m.Predict(X)); acc != 1 {
			t.Errorf("%d classes: training accuracy %v, want 1\n%s", nc, acc, m.Rules(s))
		}
		Xt, yt, _ := separable(200, nc, 8)
		if acc := learn.Accuracy(yt, m.Predict(Xt)); acc != 1 {
			t.Errorf("%d classes: test accuracy %v, want 1", nc, acc)
		}
		// every rule tests only the deciding column
		for _, line := range strings.Split(m.Rules(s), "\n") {
			if strings.HasPrefix(line, "IF ") && (strings.Contains(line, "noise") || strings.Contains(line, "count")) {
				t.Errorf("rule uses a noise column: %s", line)
			}
		}
	}
	// numeric threshold: x in 1..100, class 1 iff x > 50; the median edge is
	// 50.5, so the bins separate the classes exactly.
	var X [][]float64
	var y []int
	for v := 1; v <= 100; v++ {
		X = append(X, []float64{float64(v)})
		y = append(y, map[bool]int{false: 0, true: 1}[v > 50])
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "x"}}, Classes: []string{"low", "high"}}
	m := fitDefault(t, X, y, s, 3)
	if acc := learn.Accuracy(y, m.Predict(X)); acc != 1 {
		t.Errorf("threshold: accuracy %v\n%s", acc, m.Rules(s))
	}
	if !strings.Contains(m.Rules(s), "IF x=") {
		t.Errorf("rules do not name bins:\n%s", m.Rules(s))
	}
}

func noisy(n int, seed uint64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 3))
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		X[i] = []float64{a, b, float64(rng.IntN(3))}
		c := 0
		if a+0.5*b+0.7*rng.NormFloat64() > 0.3 {
			c = 1
		}
		if a < -1 {
			c = 2
		}
		y[i] = c
	}
	s := learn.Schema{
		Features: []learn.Feature{{Name: "a"}, {Name: "b"}, {Name: "g", Nominal: true, Categories: []string{"x", "y", "z"}}},
		Classes:  []string{"c0", "c1", "c2"},
	}
	return X, y, s
}

func TestDeterministicPerSeed(t *testing.T) {
	X, y, s := noisy(400, 11)
	m1 := fitDefault(t, X, y, s, 5)
	m2 := fitDefault(t, X, y, s, 5)
	if m1.Rules(s) != m2.Rules(s) || !slices.Equal(m1.Predict(X), m2.Predict(X)) {
		t.Fatal("same seed gave different models")
	}
	// concurrent fits with one trainer agree with the sequential one
	tr, _ := New(Config{K: 2, PruneSize: 0.33, DLAllowance: 64, NBins: 10, Alpha: 1, Seed: 5})
	done := make(chan string, 4)
	for g := 0; g < 4; g++ {
		go func() {
			m, err := tr.Fit(X, y, s)
			if err != nil {
				done <- err.Error()
				return
			}
			done <- m.Rules(s)
		}()
	}
	for g := 0; g < 4; g++ {
		if got := <-done; got != m1.Rules(s) {
			t.Errorf("concurrent fit differs:\n%s", got)
		}
	}
	// a different seed is allowed to differ; it must still be a valid model
	m3 := fitDefault(t, X, y, s, 6)
	if acc := learn.Accuracy(y, m3.Predict(X)); acc < 0.6 {
		t.Errorf("seed 6: training accuracy %v", acc)
	}
}

func TestDegenerateInputs(t *testing.T) {
	X, y, s := noisy(120, 2)

	// one class only: always predicted, no rules
	ones := make([]int, len(y))
	for i := range ones {
		ones[i] = 1
	}
	m := fitDefault(t, X, ones, s, 1)
	for _, p := range m.Predict(X[:10]) {
		if p != 1 {
			t.Fatalf("single-class model predicted %d", p)
		}
	}
	if c := m.Complexity(); c.Rules != 0 || c.Leaves != 0 || c.InternalNodes != 0 {
		t.Errorf("single-class complexity %+v", c)
	}

	// a class absent from training (schema has 3, data only 0 and 2):
	// binary mode, predictions only among the present classes
	var Xa [][]float64
	var ya []int
	for i, c := range y {
		if c != 1 {
			Xa = append(Xa, X[i])
			ya = append(ya, c)
		}
	}
	m = fitDefault(t, Xa, ya, s, 1)
	for _, p := range m.Predict(X) {
		if p != 0 && p != 2 {
			t.Fatalf("absent class predicted: %d", p)
		}
	}

	// a constant column and NaN cells are accepted
	Xc := make([][]float64, len(X))
	for i, row := range X {
		Xc[i] = []float64{row[0], 4.2, row[2]}
		if i%7 == 0 {
			Xc[i][0] = math.NaN()
		}
	}
	m = fitDefault(t, Xc, y, s, 1)
	if p := m.Predict(Xc); len(p) != len(y) {
		t.Fatal("bad prediction length")
	}
	if strings.Contains(m.Rules(s), "=nan") {
		t.Errorf("a NaN condition was chosen:\n%s", m.Rules(s))
	}

	// all columns constant: no rule can be grown; the majority class wins
	Xk := make([][]float64, len(X))
	for i := range Xk {
		Xk[i] = []float64{1, 2, 0}
	}
	yb := make([]int, len(y))
	for i := range yb {
		if i%3 == 0 {
			yb[i] = 1
		}
	}
	sb := learn.Schema{Features: s.Features, Classes: []string{"no", "yes"}}
	m = fitDefault(t, Xk, yb, sb, 1)
	if c := m.Complexity(); c.Rules != 0 {
		t.Errorf("constant data grew %d rules", c.Rules)
	}
	for _, p := range m.Predict(Xk[:5]) {
		if p != 0 {
			t.Errorf("constant data predicted %d, want majority 0", p)
		}
	}

	// invalid input: clear errors, no panic
	tr, _ := New(DefaultConfig())
	bad := []struct {
		name string
		X    [][]float64
		y    []int
	}{
		{"empty", nil, nil},
		{"length mismatch", X[:3], y[:2]},
		{"class out of range", X[:2], []int{0, 5}},
		{"infinite", [][]float64{{math.Inf(1), 0, 0}}, []int{0}},
		{"short row", [][]float64{{1}}, []int{0}},
	}
	for _, c := range bad {
		if _, err := tr.Fit(c.X, c.y, s); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	for _, cfg := range []Config{
		{K: -1, PruneSize: 0.33, NBins: 10, Alpha: 1},
		{K: 2, PruneSize: 0, NBins: 10, Alpha: 1},
		{K: 2, PruneSize: 1, NBins: 10, Alpha: 1},
		{K: 2, PruneSize: 0.33, NBins: 0, Alpha: 1},
		{K: 2, PruneSize: 0.33, NBins: 10, Alpha: 1, MaxRules: -1},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

func TestOneVsRestTieGoesToLastClass(t *testing.T) {
	// three rule sets with no rules and the same uncovered rate: every row
	// ties, and scikit-learn's running argmax keeps the last class
	same := binaryModel{uncovered: smoothed(3, 1, 1)}
	m := &Model{
		columns:    []*column{{valueOf: map[float64]int{}}},
		present:    []int{0, 1, 2},
		positives:  []int{0, 1, 2},
		estimators: []binaryModel{same, same, same},
	}
	if p := m.Predict([][]float64{{0}}); p[0] != 2 {
		t.Errorf("tie predicted %d, want 2", p[0])
	}
	// binary mode: positive only when p > 0.5 strictly; uncovered rate
	// (fn+1)/(u+2) = (1+1)/(2+2) = 0.5 → negative class
	half := binaryModel{uncovered: smoothed(1, 1, 1)}
	m = &Model{columns: m.columns, present: []int{0, 1}, positives: []int{1}, estimators: []binaryModel{half}}
	if p := m.Predict([][]float64{{0}}); p[0] != 0 {
		t.Errorf("p = 0.5 predicted %d, want 0", p[0])
	}
}

func TestComplexityCountsAllRuleSets(t *testing.T) {
	m := &Model{estimators: []binaryModel{
		{rules: []rule{{0, 1}, {2}}},
		{rules: []rule{{3, 4, 5}}},
	}}
	want := learn.Complexity{Rules: 3, Antecedents: 6, Leaves: 3}
	if got := m.Complexity(); got != want {
		t.Errorf("complexity %+v, want %+v", got, want)
	}
}
