package fga

import (
	"slices"
	"strconv"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// fixedGolden holds reference outputs of ex-fuzzy at c0ffdcf (2025-07-23,
// after the 2025-07-18 fix of pattern support in 1caf1c4) on its
// linguistic_variables path, for a small data set made for this test (90
// training rows, 3 classes; columns: a class-shifted normal, a binary, small
// integers with ties, a skewed column with ties, a constant; 40 test rows
// reaching outside every training range). Recorded once by running the
// reference (the driver script is not kept: it runs the reference's code):
//   - partitions: utils.construct_partitions(X, t1, n_partitions=3), each
//     variable's domain and trapezoid parameters; partitions_by_labels the
//     same with 2, 4 and 5 partitions;
//   - test_memberships: fuzzyVariable.compute_memberships of every test
//     column (clipped to the domain first);
//   - cases: 60 random chromosomes within the bounds of
//     FitRuleBase(X, y, nRules=15, nAnts=3, n_classes=3,
//     linguistic_variables=..., tolerance=0.01) (a third with fewer
//     don't-cares): F = 1 - MCC of its _evaluate, then for the rule base of
//     _construct_ruleBase after evalRuleBase.add_full_evaluation and
//     purge_rules(0.01) (what fit does with the returned chromosome) the
//     winning_rule_predict of the training and test rows and the dominance
//     scores.
type fixedGolden struct {
	X          [][]float64 `json:"X"`
	Y          []int       `json:"y"`
	XTest      [][]float64 `json:"X_test"`
	Partitions []struct {
		Domain []float64   `json:"domain"`
		Sets   [][]float64 `json:"sets"`
	} `json:"partitions"`
	ByLabels    map[string][][][]float64 `json:"partitions_by_labels"`
	Memberships [][][]float64            `json:"test_memberships"`
	Cases       []goldenCase             `json:"cases"`
}

// fixedFixture reads the golden file and builds the partitions of its
// training rows with labels labels.
func fixedFixture(t *testing.T, labels int) (fixedGolden, Config, *fixedPartitions) {
	t.Helper()
	var g fixedGolden
	readGolden(t, "testdata/exfuzzy_fixed.json", &g)
	o := DefaultConfig()
	o.Fixed, o.Labels = true, labels
	fp, err := fitFixedPartitions(g.X, o)
	if err != nil {
		t.Fatal(err)
	}
	return g, o, fp
}

func trapezoidParams(t fuzzy.Trapezoid) []float64 { return []float64{t.A, t.B, t.C, t.D} }

// TestGoldenFixedPartitions: the partitions, bit for bit, for 2 to 5
// labels, and the clipped memberships of out-of-range test values.
func TestGoldenFixedPartitions(t *testing.T) {
	g, _, fp := fixedFixture(t, 3)
	for f, want := range g.Partitions {
		if fp.lo[f] != want.Domain[0] || fp.hi[f] != want.Domain[1] {
			t.Errorf("feature %d: domain [%v, %v], ex-fuzzy %v", f, fp.lo[f], fp.hi[f], want.Domain)
		}
		for l, set := range fp.sets[f] {
			if got := trapezoidParams(set); !slices.Equal(got, want.Sets[l]) {
				t.Errorf("feature %d label %d: %v, ex-fuzzy %v", f, l, got, want.Sets[l])
			}
		}
		for l := range fp.sets[f] {
			for i, row := range g.XTest {
				x := min(max(row[f], fp.lo[f]), fp.hi[f])
				if got, want := fp.sets[f][l].Membership(x), g.Memberships[f][l][i]; got != want {
					t.Errorf("feature %d label %d test row %d (x = %v): membership %v, ex-fuzzy %v", f, l, i, row[f], got, want)
				}
			}
		}
	}
	// FGRT's quantile partition is the same function for three labels.
	fg, err := fuzzy.FitPartitions(g.X, make([]bool, len(g.X[0])), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	for f := range fg {
		sets, _ := fg[f].Trapezoids()
		for l := range sets {
			if sets[l] != fp.sets[f][l] {
				t.Errorf("feature %d label %d: FGRT %v, FGA %v", f, l, sets[l], fp.sets[f][l])
			}
		}
	}
	for _, labels := range []int{2, 4, 5} {
		_, _, fp := fixedFixture(t, labels)
		for f, want := range g.ByLabels[strconv.Itoa(labels)] {
			for l := range want {
				if got := trapezoidParams(fp.sets[f][l]); !slices.Equal(got, want[l]) {
					t.Errorf("%d labels, feature %d label %d: %v, ex-fuzzy %v", labels, f, l, got, want[l])
				}
			}
		}
	}
}

// TestGoldenFixedFitnessAndPredictions: fitness of given chromosomes,
// predictions and dominance scores of their purged rule bases.
func TestGoldenFixedFitnessAndPredictions(t *testing.T) {
	g, o, fp := fixedFixture(t, 3)
	p := newProblem(g.X, g.Y, 3, o, newSpreader(1, nil), fp)
	if want := 2*15*3 + 15; p.lay.nVar != want {
		t.Fatalf("layout has %d genes, want %d (no membership genes)", p.lay.nVar, want)
	}
	sc := newScratch(p)
	for k, c := range g.Cases {
		for j, v := range c.Genes {
			if v < p.lay.xl[j] || v > p.lay.xu[j] {
				t.Fatalf("case %d gene %d = %d outside [%d, %d]", k, j, v, p.lay.xl[j], p.lay.xu[j])
			}
		}
		checkCase(t, p, sc, k, c, g.X, g.XTest)
	}
}

// TestFixedTrainerUsesPreparedPartitions: Prepare fixes the partitions and
// their domain; a later fit on a subset keeps them, and a fit without
// Prepare builds them from its own training set.
func TestFixedTrainerUsesPreparedPartitions(t *testing.T) {
	g, o, _ := fixedFixture(t, 3)
	s := learn.Schema{Classes: []string{"0", "1", "2"}}
	for range g.X[0] {
		s.Features = append(s.Features, learn.Feature{})
	}
	o.Generations, o.Population, o.Workers = 5, 10, 1
	tr, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	all := append(append([][]float64{}, g.X...), g.XTest...)
	pt, err := tr.Prepare(all, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := fitFixedPartitions(all, o)
	own, _ := fitFixedPartitions(g.X[:60], o)
	for _, c := range []struct {
		tr   learn.Trainer
		want *fixedPartitions
	}{{pt, want}, {tr, own}} {
		m, err := c.tr.Fit(g.X[:60], g.Y[:60], s)
		if err != nil {
			t.Fatal(err)
		}
		fm := m.(*Model)
		for f := range fm.partitions {
			if fm.lo[f] != c.want.lo[f] || fm.hi[f] != c.want.hi[f] || !slices.Equal(fm.partitions[f], c.want.sets[f]) {
				t.Fatalf("feature %d: model partitions are not the expected ones", f)
			}
		}
	}
}

// TestFixedPaperFormula: partition=paper gives the paper text's quartile
// formula (FGRT's partition=paper), which differs from ex-fuzzy's.
func TestFixedPaperFormula(t *testing.T) {
	g, o, quantile := fixedFixture(t, 3)
	o.Style = fuzzy.PaperStyle
	fp, err := fitFixedPartitions(g.X, o)
	if err != nil {
		t.Fatal(err)
	}
	col := make([]float64, len(g.X))
	for i, row := range g.X {
		col[i] = row[0]
	}
	want, err := fuzzy.NumericPartition(col, fuzzy.PaperStyle)
	if err != nil {
		t.Fatal(err)
	}
	sets, _ := want.Trapezoids()
	if !slices.Equal(fp.sets[0], sets[:]) {
		t.Fatalf("paper formula %v, want %v", fp.sets[0], sets)
	}
	if slices.Equal(fp.sets[0], quantile.sets[0]) {
		t.Fatal("the paper's formula equals ex-fuzzy's on a normal column")
	}
}
