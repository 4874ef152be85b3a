package fgrt

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// goldenTable is a parsed golden CSV: named columns of float64.
type goldenTable struct {
	cols map[string][]float64
	n    int
}

func readGoldenCSV(t *testing.T, rel string) goldenTable {
	t.Helper()
	f, err := os.Open(sharedtest.Require(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	g := goldenTable{cols: map[string][]float64{}, n: len(recs) - 1}
	for j, name := range recs[0] {
		col := make([]float64, g.n)
		for i, r := range recs[1:] {
			// strconv.ParseFloat is correctly rounded, as the golden README requires.
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
	opt := GrowOptions{MaxRules: maxRules, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3}
	for k := 0; k < 5; k++ {
		Xtr, ytr, Xte, _, idx := splitFold(X, y, fold, k)
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
