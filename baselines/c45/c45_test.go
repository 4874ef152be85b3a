package c45

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// weather is Quinlan's play-tennis table with numeric temperature and
// humidity (Weka's weather.arff), coded: outlook sunny=0 overcast=1
// rainy=2, windy TRUE=0 FALSE=1, class yes=0 no=1.
func weather() ([][]float64, []int, learn.Schema) {
	X := [][]float64{
		{0, 85, 85, 1}, {0, 80, 90, 0}, {1, 83, 86, 1}, {2, 70, 96, 1},
		{2, 68, 80, 1}, {2, 65, 70, 0}, {1, 64, 65, 0}, {0, 72, 95, 1},
		{0, 69, 70, 1}, {2, 75, 80, 1}, {0, 75, 70, 0}, {1, 72, 90, 0},
		{1, 81, 75, 1}, {2, 71, 91, 0},
	}
	y := []int{1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1}
	s := learn.Schema{
		Features: []learn.Feature{
			{Name: "outlook", Nominal: true, Categories: []string{"sunny", "overcast", "rainy"}},
			{Name: "temperature"},
			{Name: "humidity"},
			{Name: "windy", Nominal: true, Categories: []string{"TRUE", "FALSE"}},
		},
		Classes: []string{"yes", "no"},
	}
	return X, y, s
}

// mustNew is New for a configuration the test knows to be valid.
func mustNew(t testing.TB, cfg Config) *Trainer {
	t.Helper()
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func fitTree(t *testing.T, cfg Config, X [][]float64, y []int, s learn.Schema) *Model {
	t.Helper()
	m, err := mustNew(t, cfg).FitTree(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAddErrs checks Stats.addErrs against values worked out from its
// formula by hand (Python, z = Phi^-1(1-CF)).
func TestAddErrs(t *testing.T) {
	cases := []struct {
		n, e, cf, want float64
	}{
		{14, 0, 0.25, 1.319868700305306},    // base case N(1-CF^(1/N))
		{6, 0, 0.25, 1.2377968440954012},    // base case
		{1, 0, 0.25, 0.75},                  // N = 1: 1 - CF
		{14, 0.5, 0.25, 1.3902093662730999}, // interpolation between e = 0 and e = 1
		{6, 1, 0.25, 1.303506557968256},     // normal approximation
		{100, 10, 0.25, 2.7496114511898675},
		{285, 13, 0.25, 3.131217100794725},
		{2, 1.5, 0.25, 0.5},              // e + 0.5 >= N: N - e
		{3, 2.7, 0.25, 0.3},              // same branch
		{20, 3, 0.5, 0.5},                // CF = 0.5: z = 0, r = (e+0.5)/N
		{50, 5, 0.1, 3.9781856636618897}, // CF = float32(0.1), z = Phi^-1(float32(0.9))
		{50, 0, 0.1, 2.250370684697706},
		{50, 5, 0.6, 0}, // CF > 0.5 is ignored, as in Weka
	}
	for _, c := range cases {
		if got := AddErrs(c.n, c.e, c.cf); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AddErrs(%v, %v, %v) = %.17g, want %.17g", c.n, c.e, c.cf, got, c.want)
		}
	}
	if z := normalInverse(0.75); math.Abs(z-0.6744897501960817) > 1e-15 {
		t.Errorf("normalInverse(0.75) = %.17g", z)
	}
}

// TestRootCandidates checks the criteria of every weather attribute at the
// root against hand computation: outlook IG 0.2467 bits, GR 0.1564; windy
// IG 0.0481, GR 0.0488; the numeric attributes' MDL-corrected gains are
// negative (temperature: 0.0453 - log2(9)/14; humidity: 0.1518 -
// log2(7)/14), so they are invalid.
func TestRootCandidates(t *testing.T) {
	X, y, s := weather()
	b, err := newBuilder(DefaultConfig(), X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	ids, w := allRows(b.n)
	sc := b.newScratch()
	attr, ok := b.selectAttribute(sc, ids, w, 14, b.rootRows())
	if !ok || attr != 0 {
		t.Fatalf("root attribute = %d, %v; want outlook", attr, ok)
	}
	want := []candidate{
		{valid: true, infoGain: 0.24674981977443933, gainRatio: 0.15642756242117528},
		{},
		{},
		{valid: true, infoGain: 0.04812703040826949, gainRatio: 0.048848615511520824},
	}
	for j, c := range sc.cand {
		if c.valid != want[j].valid || math.Abs(c.infoGain-want[j].infoGain) > 1e-12 ||
			math.Abs(c.gainRatio-want[j].gainRatio) > 1e-12 {
			t.Errorf("attribute %d: got %+v, want %+v", j, c, want[j])
		}
	}
}

func allRows(n int) ([]int32, []float64) {
	ids := make([]int32, n)
	w := make([]float64, n)
	for i := range ids {
		ids[i] = int32(i)
		w[i] = 1
	}
	return ids, w
}

// TestNumericMDLWithMissing works one numeric split out by hand.
// x = 1..6 with classes 0,0,0,1,1,1 plus two rows with x missing (classes
// 0 and 1): T = 8, known weight 6, minSplit = max(M=2, 0.1*6/2) = 2, so the
// admissible cuts are after 2, 3 and 4; the best (after 3) separates the
// classes: known gain 1 bit, scaled by 6/8 -> 0.75, minus log2(3)/8 for
// MDL. Split info counts the unknowns as a third bag: H(3/8, 3/8, 2/8).
// The midpoint 3.5 snaps to the largest training value below it, 3.
func TestNumericMDLWithMissing(t *testing.T) {
	nan := math.NaN()
	X := [][]float64{{1}, {2}, {3}, {4}, {5}, {6}, {nan}, {nan}}
	y := []int{0, 0, 0, 1, 1, 1, 0, 1}
	s := learn.Schema{Features: []learn.Feature{{Name: "x"}}, Classes: []string{"a", "b"}}
	b, err := newBuilder(DefaultConfig(), X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	ids, w := allRows(b.n)
	for i, id := range ids { // evalNumeric reads the node's weights by row
		b.rowW[id] = w[i]
	}
	c := b.evalNumeric(b.newScratch(), 0, b.rootRows().list(0), 8)
	wantIG := 0.75 - math.Log2(3)/8
	splitInfo := -(2*(3.0/8)*math.Log2(3.0/8) + (2.0/8)*math.Log2(2.0/8))
	if !c.valid || math.Abs(c.infoGain-wantIG) > 1e-12 || math.Abs(c.gainRatio-wantIG/splitInfo) > 1e-12 || c.threshold != 3.5 {
		t.Fatalf("got %+v, want IG %.15g GR %.15g threshold 3.5", c, wantIG, wantIG/splitInfo)
	}
	if got := b.snap(0, c.threshold); got != 3 {
		t.Fatalf("snapped threshold %v, want 3", got)
	}
}

// TestWeatherTree: J48 (Weka 3.6.14, default options) prints this tree for
// weather.arff: 5 leaves, size 8.
func TestWeatherTree(t *testing.T) {
	X, y, s := weather()
	for _, cfg := range []Config{DefaultConfig(), {Confidence: 0.25, MinObj: 1, Unpruned: true, Collapse: true}} {
		m := fitTree(t, cfg, X, y, s)
		want := strings.Join([]string{
			"",
			"outlook = sunny",
			"|   humidity <= 75: yes (2.0)",
			"|   humidity > 75: no (3.0)",
			"outlook = overcast: yes (4.0)",
			"outlook = rainy",
			"|   windy = TRUE: no (2.0)",
			"|   windy = FALSE: yes (3.0)",
		}, "\n")
		if got := m.WekaString(s); got != want {
			t.Errorf("tree:\n%s\nwant:\n%s", got, want)
		}
		c := m.Complexity()
		if c != (learn.Complexity{Rules: 5, Antecedents: 9, Leaves: 5, InternalNodes: 3}) || m.Size() != 8 {
			t.Errorf("complexity %+v size %d", c, m.Size())
		}
		if acc := learn.Accuracy(y, m.Predict(X)); acc != 1 {
			t.Errorf("training accuracy %v", acc)
		}
		wantRules := "IF outlook = sunny AND humidity <= 75 THEN class yes\n" +
			"IF outlook = sunny AND humidity > 75 THEN class no\n" +
			"IF outlook = overcast THEN class yes\n" +
			"IF outlook = rainy AND windy = TRUE THEN class no\n" +
			"IF outlook = rainy AND windy = FALSE THEN class yes\n"
		if got := m.Rules(s); got != wantRules {
			t.Errorf("rules:\n%s\nwant:\n%s", got, wantRules)
		}
	}
}

// TestMissingAtPrediction: with outlook missing the row is spread over the
// three branches with weights 5/14, 4/14, 5/14. Humidity 90 and windy TRUE
// reach the leaves no, yes, no: P(yes) = 4/14.
func TestMissingAtPrediction(t *testing.T) {
	X, y, s := weather()
	m := fitTree(t, DefaultConfig(), X, y, s)
	row := []float64{math.NaN(), 70, 90, 0}
	p := m.Probabilities(row)
	if math.Abs(p[0]-4.0/14) > 1e-12 || math.Abs(p[1]-10.0/14) > 1e-12 {
		t.Fatalf("probabilities %v, want [4/14 10/14]", p)
	}
	if got := m.Predict([][]float64{row, {math.NaN(), math.NaN(), math.NaN(), math.NaN()}}); got[0] != 1 || got[1] != 0 {
		t.Fatalf("predictions %v, want [1 0]", got)
	}
	// Unknown nominal codes and short rows count as missing, never panic.
	m.Predict([][]float64{{7, 1, 2, 9}, {}, {-1, 0, 0, 0.5}})
}

// randomData draws a mixed table with a fraction of missing cells.
func randomData(seed uint64, n int, missing float64) ([][]float64, []int, learn.Schema) {
	rng := rand.New(rand.NewPCG(seed, 99))
	s := learn.Schema{
		Features: []learn.Feature{
			{Name: "a"}, {Name: "b"},
			{Name: "c", Nominal: true, Categories: []string{"p", "q", "r", "s"}},
			{Name: "d", Nominal: true},
		},
		Classes: []string{"k0", "k1", "k2"},
	}
	X := make([][]float64, n)
	y := make([]int, n)
	for i := range X {
		a, b := rng.NormFloat64(), float64(rng.IntN(10))
		c, d := float64(rng.IntN(4)), float64(rng.IntN(3))
		X[i] = []float64{a, b, c, d}
		switch {
		case a > 0.3 && c != 1:
			y[i] = 0
		case b > 5 || d == 2:
			y[i] = 1
		default:
			y[i] = 2
		}
		if rng.Float64() < 0.15 {
			y[i] = rng.IntN(3)
		}
		for j := range X[i] {
			if rng.Float64() < missing {
				X[i][j] = math.NaN()
			}
		}
	}
	return X, y, s
}

// TestFractionalWeightsConserved grows (without pruning) on data with
// missing values and checks at every node that the children's weights add
// up to the node's weight and that the split distribution holds it all.
func TestFractionalWeightsConserved(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		X, y, s := randomData(seed, 300, 0.2)
		b, err := newBuilder(DefaultConfig(), X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		ids, w := allRows(b.n)
		root := b.grow(ids, w, b.rootRows())
		var check func(nd *node)
		internal := 0
		check = func(nd *node) {
			own := 0.0
			for _, v := range nd.w {
				own += v
			}
			if math.Abs(own-nd.dist.total) > 1e-9 {
				t.Fatalf("seed %d: node weight %v, distribution total %v", seed, own, nd.dist.total)
			}
			if nd.leaf {
				return
			}
			internal++
			sum, bags := 0.0, 0.0
			for k, ch := range nd.children {
				sum += ch.dist.total
				bags += nd.dist.perBag[k]
			}
			if math.Abs(sum-own) > 1e-9 || math.Abs(bags-own) > 1e-9 {
				t.Fatalf("seed %d: node weight %v, children %v, bags %v", seed, own, sum, bags)
			}
			for _, ch := range nd.children {
				check(ch)
			}
		}
		check(root)
		if internal == 0 {
			t.Fatalf("seed %d: tree has no split", seed)
		}
	}
}

// TestDegenerate: data that cannot be split gives one valid leaf.
func TestDegenerate(t *testing.T) {
	nan := math.NaN()
	num := learn.Schema{Features: []learn.Feature{{Name: "x"}, {Name: "z"}}, Classes: []string{"a", "b"}}
	cases := []struct {
		name string
		X    [][]float64
		y    []int
		s    learn.Schema
		want int
	}{
		{"constant columns", [][]float64{{1, 2}, {1, 2}, {1, 2}, {1, 2}, {1, 2}}, []int{0, 1, 1, 0, 1}, num, 1},
		{"one class", [][]float64{{1, 2}, {3, 4}, {5, 6}, {7, 8}}, []int{0, 0, 0, 0}, num, 0},
		{"all missing", [][]float64{{nan, nan}, {nan, nan}, {nan, nan}, {nan, nan}}, []int{0, 1, 1, 1}, num, 1},
		{"one row", [][]float64{{1, 2}}, []int{1}, num, 1},
		{"fewer than 2M rows", [][]float64{{1, 2}, {3, 4}, {5, 6}}, []int{0, 1, 1}, num, 1},
		{"no features", [][]float64{{}, {}, {}, {}}, []int{1, 0, 1, 1}, learn.Schema{Classes: []string{"a", "b"}}, 1},
		{"nominal all missing", [][]float64{{nan}, {nan}, {nan}, {nan}, {nan}},
			[]int{0, 1, 0, 1, 1}, learn.Schema{Features: []learn.Feature{{Name: "c", Nominal: true}}, Classes: []string{"a", "b"}}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := fitTree(t, DefaultConfig(), c.X, c.y, c.s)
			if got := m.Complexity(); got != (learn.Complexity{Rules: 1, Leaves: 1}) {
				t.Fatalf("complexity %+v, want one leaf", got)
			}
			pred := m.Predict(c.X)
			for _, p := range pred {
				if p != c.want {
					t.Fatalf("predictions %v, want all %d", pred, c.want)
				}
			}
			if r := m.Rules(c.s); !strings.HasPrefix(r, "IF TRUE THEN class ") {
				t.Fatalf("rules %q", r)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	s := learn.Schema{Features: []learn.Feature{{Name: "x"}, {Name: "c", Nominal: true, Categories: []string{"u", "v"}}}, Classes: []string{"a", "b"}}
	good := [][]float64{{1, 0}, {2, 1}}
	cases := []struct {
		name string
		cfg  Config
		X    [][]float64
		y    []int
	}{
		{"empty", DefaultConfig(), nil, nil},
		{"length mismatch", DefaultConfig(), good, []int{0}},
		{"class out of range", DefaultConfig(), good, []int{0, 2}},
		{"ragged row", DefaultConfig(), [][]float64{{1, 0}, {2}}, []int{0, 1}},
		{"confidence 0", Config{Confidence: 0, MinObj: 2}, good, []int{0, 1}},
		{"confidence above 0.5", Config{Confidence: 0.6, MinObj: 2}, good, []int{0, 1}},
		{"confidence NaN", Config{Confidence: math.NaN(), MinObj: 2}, good, []int{0, 1}},
		{"min_obj 0", Config{Confidence: 0.25, MinObj: 0}, good, []int{0, 1}},
		{"fractional code", DefaultConfig(), [][]float64{{1, 0.5}, {2, 1}}, []int{0, 1}},
		{"negative code", DefaultConfig(), [][]float64{{1, -1}, {2, 1}}, []int{0, 1}},
		{"code beyond categories", DefaultConfig(), [][]float64{{1, 2}, {2, 1}}, []int{0, 1}},
		{"infinite value", DefaultConfig(), [][]float64{{math.Inf(1), 0}, {2, 1}}, []int{0, 1}},
	}
	for _, c := range cases {
		// An invalid configuration is refused by New, invalid data by Fit;
		// the zero Trainer (no New) must refuse the configuration too.
		tr, err := New(c.cfg)
		if err == nil {
			_, err = tr.Fit(c.X, c.y, s)
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if _, err := (&Trainer{cfg: c.cfg}).Fit(c.X, c.y, s); err == nil {
			t.Errorf("%s: zero trainer: no error", c.name)
		}
	}
	if _, err := mustNew(t, DefaultConfig()).Fit(nil, nil, s); !errors.Is(err, learn.ErrNoRows) {
		t.Errorf("empty data: %v", err)
	}
}

// TestDeterministicAndConcurrent: one Trainer fitting the same data from
// several goroutines yields identical trees.
func TestDeterministicAndConcurrent(t *testing.T) {
	X, y, s := randomData(7, 400, 0.1)
	tr := mustNew(t, DefaultConfig())
	ref, err := tr.FitTree(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	want := ref.WekaString(s)
	var wg sync.WaitGroup
	out := make([]string, 4)
	for g := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := tr.FitTree(X, y, s)
			if err == nil {
				out[g] = m.WekaString(s)
			}
		}()
	}
	wg.Wait()
	for g, got := range out {
		if got != want {
			t.Fatalf("goroutine %d: tree differs", g)
		}
	}
}

// TestPruningShrinks: pruning and lower confidence never grow the tree,
// and every option combination yields a consistent model.
func TestPruningShrinks(t *testing.T) {
	X, y, s := randomData(3, 500, 0.05)
	size := func(cfg Config) int { return fitTree(t, cfg, X, y, s).Size() }
	unpruned := size(Config{Confidence: 0.25, MinObj: 2, Unpruned: true, Collapse: true})
	pruned := size(DefaultConfig())
	strict := size(Config{Confidence: 0.05, MinObj: 2, SubtreeRaising: true, Collapse: true})
	if !(strict <= pruned && pruned <= unpruned) {
		t.Fatalf("sizes: C=0.05 %d, C=0.25 %d, unpruned %d", strict, pruned, unpruned)
	}
	for _, cfg := range []Config{
		{Confidence: 0.25, MinObj: 2},
		{Confidence: 0.5, MinObj: 1, SubtreeRaising: true},
		{Confidence: 0.1, MinObj: 10, Unpruned: true},
	} {
		m := fitTree(t, cfg, X, y, s)
		c := m.Complexity()
		if c.Rules != c.Leaves || c.Leaves < 1 || strings.Count(m.Rules(s), "\n") != c.Rules {
			t.Fatalf("%+v: complexity %+v", cfg, c)
		}
		if len(m.Predict(X)) != len(X) {
			t.Fatal("prediction length")
		}
	}
}

// FuzzFit feeds arbitrary small tables through Fit and Predict.
func FuzzFit(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(2))
	f.Add([]byte{0, 0, 0, 0, 255, 255, 255, 255}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, minObj uint8) {
		s := learn.Schema{
			Features: []learn.Feature{{Name: "n"}, {Name: "c", Nominal: true}},
			Classes:  []string{"a", "b", "c"},
		}
		var X [][]float64
		var y []int
		for i := 0; i+2 < len(data); i += 3 {
			v := float64(data[i] % 16)
			if data[i] > 240 {
				v = math.NaN()
			}
			c := float64(data[i+1] % 4)
			if data[i+1] > 250 {
				c = math.NaN()
			}
			X = append(X, []float64{v, c})
			y = append(y, int(data[i+2]%3))
		}
		cfg := DefaultConfig()
		cfg.MinObj = int(minObj%5) + 1
		m, err := mustNew(t, cfg).Fit(X, y, s)
		if err != nil {
			if len(X) == 0 {
				return
			}
			t.Fatal(err)
		}
		m.Predict(X)
		m.Rules(s)
	})
}

// TestSortByValue checks the radix presort against a plain comparison sort
// on values with negatives, zeros of both signs, ties and missing values.
func TestSortByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 50; trial++ {
		n := rng.IntN(300)
		col := make([]float64, n)
		for i := range col {
			switch rng.IntN(6) {
			case 0:
				col[i] = math.NaN()
			case 1:
				col[i] = float64(rng.IntN(5) - 2)
			case 2:
				col[i] = math.Copysign(0, -1)
			default:
				col[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-6))
			}
		}
		idx := make([]int32, n)
		sortByValue(idx, col, make([]uint64, n), make([]uint64, n), make([]int32, n))
		seen := make([]bool, n)
		for k, i := range idx {
			if seen[i] {
				t.Fatalf("row %d twice", i)
			}
			seen[i] = true
			if k == 0 {
				continue
			}
			a, b := col[idx[k-1]], col[i]
			switch {
			case math.IsNaN(a):
				if !math.IsNaN(b) {
					t.Fatalf("known value after missing")
				}
			case math.IsNaN(b):
			case a > b:
				t.Fatalf("out of order: %v before %v", a, b)
			case a == b && a != 0 && idx[k-1] > i:
				t.Fatalf("tie not in row order")
			}
		}
	}
}
