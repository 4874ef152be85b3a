package fgrt

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
	"github.com/fgrtbench/fgrtbench/learn"
)

// goldenTable is a parsed golden CSV: named columns of float64.
type goldenTable struct {
	cols map[string][]float64
	n    int
}

func readGoldenCSV(t *testing.T, rel string) goldenTable {
	t.Helper()
	recs := sharedtest.ReadCSV(t, rel)
	g := goldenTable{cols: map[string][]float64{}, n: len(recs) - 1}
	for j, name := range recs[0] {
		col := make([]float64, g.n)
		for i, r := range recs[1:] {
			// strconv.ParseFloat is correctly rounded, which the golden values
			// need (a parser off by one ulp shifts some separability indices).
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatalf("%s row %d col %s: %v", rel, i, name, err)
			}
			col[i] = v
		}
		g.cols[name] = col
	}
	return g
}

// matrix returns X (columns x0..), y and fold.
func (g goldenTable) matrix() (X [][]float64, y, fold []int) {
	d := 0
	for {
		if _, ok := g.cols["x"+strconv.Itoa(d)]; !ok {
			break
		}
		d++
	}
	X = make([][]float64, g.n)
	y = make([]int, g.n)
	fold = make([]int, g.n)
	for i := 0; i < g.n; i++ {
		X[i] = make([]float64, d)
		for j := 0; j < d; j++ {
			X[i][j] = g.cols["x"+strconv.Itoa(j)][i]
		}
		y[i] = int(g.cols["y"][i])
		fold[i] = int(g.cols["fold"][i])
	}
	return
}

func splitFold(X [][]float64, y, fold []int, k int) (Xtr [][]float64, ytr []int, Xte [][]float64, yte []int, idx []int) {
	for i := range X {
		if fold[i] == k {
			Xte = append(Xte, X[i])
			yte = append(yte, y[i])
			idx = append(idx, i)
		} else {
			Xtr = append(Xtr, X[i])
			ytr = append(ytr, y[i])
		}
	}
	return
}

type goldenSummary struct {
	FoldAcc  []float64 `json:"fold_acc"`
	MeanAcc  float64   `json:"mean_acc"`
	Leaves   []int     `json:"leaves"`
	Internal []int     `json:"internal"`
	Depth    []int     `json:"depth"`
}

type goldenJSON struct {
	PartitionsDefault [][][4]float64           `json:"partitions_default"`
	PartitionsOptgrid [][][4]float64           `json:"partitions_optgrid"`
	Summary           map[string]goldenSummary `json:"summary"`
}

func readGoldenJSON(t *testing.T) goldenJSON {
	t.Helper()
	b, err := os.ReadFile(sharedtest.Require(t, "reference/golden/wine_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g goldenJSON
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func comparePartitions(t *testing.T, name string, got []fuzzy.Partition, want [][][4]float64) {
	t.Helper()
	bad, total := 0, 0
	for f := range want {
		for k := range want[f] {
			s := got[f].Terms[k].Shape
			g := [4]float64{s.A, s.B, s.C, s.D}
			for c := 0; c < 4; c++ {
				total++
				if math.Abs(g[c]-want[f][k][c]) > 1e-9 {
					bad++
					if bad < 10 {
						t.Errorf("%s: feature %d term %d corner %d: got %.17g want %.17g", name, f, k, c, g[c], want[f][k][c])
					}
				} else if g[c] != want[f][k][c] {
					t.Logf("%s: feature %d term %d corner %d differs by %g (within 1e-9)", name, f, k, c, g[c]-want[f][k][c])
				}
			}
		}
	}
	t.Logf("%s: %d/%d corners equal", name, total-bad, total)
}

func TestGoldenWineDefaultPartitions(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	gj := readGoldenJSON(t)
	X, _, _ := g.matrix()
	parts, err := fuzzy.FitPartitions(X, make([]bool, len(X[0])), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	comparePartitions(t, "default", parts, gj.PartitionsDefault)
}

// goldenSetting runs the six wine settings of wine_data.csv.
func runWineSetting(t *testing.T, g goldenTable, gj goldenJSON, setting string, parts []fuzzy.Partition, maxRules int) (agree, total int) {
	X, y, fold := g.matrix()
	want := g.cols[setting]
	sum := gj.Summary[setting]
	opt := GrowConfig{MaxRules: maxRules, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3}
	for k := 0; k < 5; k++ {
		Xtr, ytr, Xte, yte, idx := splitFold(X, y, fold, k)
		m, err := FitTree(Xtr, ytr, 3, parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		pred := m.Predict(Xte)
		for j, i := range idx {
			total++
			if pred[j] == int(want[i]) {
				agree++
			} else if total-agree < 5 {
				t.Errorf("%s fold %d row %d: got %d want %d", setting, k, i, pred[j], int(want[i]))
			}
		}
		if acc := learn.Accuracy(yte, pred); math.Abs(acc-sum.FoldAcc[k]) > 1e-12 {
			t.Errorf("%s fold %d: accuracy %v, want %v", setting, k, acc, sum.FoldAcc[k])
		}
		if m.Leaves() != sum.Leaves[k] || m.InternalNodes() != sum.Internal[k] || m.Depth() != sum.Depth[k] {
			t.Errorf("%s fold %d: leaves/internal/depth %d/%d/%d, want %d/%d/%d", setting, k,
				m.Leaves(), m.InternalNodes(), m.Depth(), sum.Leaves[k], sum.Internal[k], sum.Depth[k])
		}
	}
	return
}

func TestGoldenWineDefaultPredictions(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	gj := readGoldenJSON(t)
	X, _, _ := g.matrix()
	parts, err := fuzzy.FitPartitions(X, make([]bool, len(X[0])), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []int{5, 15, 30} {
		setting := "default_R" + strconv.Itoa(r) + "_cov0.01_imp0.01"
		agree, total := runWineSetting(t, g, gj, setting, parts, r)
		t.Logf("%s: %d/%d predictions equal", setting, agree, total)
		if agree != total {
			t.Errorf("%s: %d/%d predictions equal", setting, agree, total)
		}
	}
}

func wineOptgridPartitions(t *testing.T, X [][]float64, y []int, strategy partopt.Strategy) ([]fuzzy.Partition, int) {
	t.Helper()
	parts, err := fuzzy.FitPartitions(X, make([]bool, len(X[0])), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	opt, evals, err := partopt.Optimize(X, y, parts, partopt.Config{Strategy: strategy})
	if err != nil {
		t.Fatal(err)
	}
	return opt, evals
}

func TestGoldenWineOptgrid(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	gj := readGoldenJSON(t)
	X, y, _ := g.matrix()
	parts, evals := wineOptgridPartitions(t, X, y, partopt.Grid)
	if evals != 13*217 {
		t.Errorf("grid evaluations %d, want %d", evals, 13*217)
	}
	comparePartitions(t, "optgrid", parts, gj.PartitionsOptgrid)
	for _, r := range []int{5, 15, 30} {
		setting := "optgrid_R" + strconv.Itoa(r) + "_cov0.01_imp0.01"
		agree, total := runWineSetting(t, g, gj, setting, parts, r)
		t.Logf("%s: %d/%d predictions equal", setting, agree, total)
		if agree != total {
			t.Errorf("%s: %d/%d predictions equal", setting, agree, total)
		}
	}
}

// TestGoldenWineSeparability checks the separability values that
// docs/fidelity.md#fgrt-star lists for wine features 0..2 (decoded initial
// -> grid / coordinate / hybrid).
func TestGoldenWineSeparability(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	X, y, _ := g.matrix()
	want := [3][4]float64{{99.53, 101.45, 105.11, 102.92}, {83.47, 86.44, 87.76, 87.76}, {69.34, 73.33, 74.05, 74.42}}
	for f := 0; f < 3; f++ {
		col := make([]float64, len(X))
		for i := range X {
			col[i] = X[i][f]
		}
		p, err := fuzzy.NumericPartition(col, fuzzy.QuantileStyle)
		if err != nil {
			t.Fatal(err)
		}
		init, _ := p.Trapezoids()
		for si, s := range []partopt.Strategy{partopt.Grid, partopt.Coordinate, partopt.Hybrid} {
			res, err := partopt.OptimizeFeature(col, y, init, s)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.Initial-want[f][0]) > 0.005 {
				t.Errorf("feature %d: initial SI %.4f, want %.2f", f, res.Initial, want[f][0])
			}
			if math.Abs(res.Score-want[f][si+1]) > 0.005 {
				t.Errorf("feature %d %v: SI %.4f, want %.2f", f, s, res.Score, want[f][si+1])
			}
			t.Logf("feature %d %v: SI %.4f -> %.4f, %d evaluations", f, s, res.Initial, res.Score, res.Evaluations)
		}
	}
}

// TestGoldenWineCoordinateEvaluations pins the coordinate strategy's
// evaluation counts on wine. docs/fidelity.md#fgrt-star reports "24-90 per feature, mean
// 50.8"; this port (whose loop was checked line by line against
// _coordinate_descent_encoded at 1eefc66 and whose SI values match the
// spec's) makes 25-73, total 637 (mean 49.0, initial evaluation included).
// The difference is reported as an open question, not hidden.
func TestGoldenWineCoordinateEvaluations(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	X, y, _ := g.matrix()
	_, total := wineOptgridPartitions(t, X, y, partopt.Coordinate)
	t.Logf("coordinate: %d evaluations over 13 features (mean %.1f); spec reports mean 50.8", total, float64(total)/13)
	if total != 637 {
		t.Errorf("coordinate evaluations on wine: %d, want 637", total)
	}
}
