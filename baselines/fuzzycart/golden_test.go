package fuzzycart_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/learn"
)

// goldenRun is one fit of the reference (testdata/gen_golden.py).
type goldenRun struct {
	Config    map[string]string `json:"config"`
	Seed      int64             `json:"seed"`
	Nodes     [][2]any          `json:"nodes"`
	Cached    [][2]any          `json:"cached"`
	Leaves    int               `json:"leaves"`
	Internal  int               `json:"internal"`
	TrainPred []int             `json:"train_pred"`
	TestPred  []int             `json:"test_pred"`
	TestProba [][]float64       `json:"test_proba"`
	Classes   []int             `json:"classes"`
}

type goldenCase struct {
	Name    string      `json:"name"`
	Dataset string      `json:"dataset"`
	Fold    int         `json:"fold"`
	Nominal []bool      `json:"nominal"`
	XTrain  [][]float64 `json:"x_train"`
	YTrain  []int       `json:"y_train"`
	XTest   [][]float64 `json:"x_test"`
	Runs    []goldenRun `json:"runs"`
}

type goldenFile struct {
	Reference string       `json:"reference"`
	Cases     []goldenCase `json:"cases"`
}

func readGolden(t *testing.T, path string) goldenFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g
}

// schemaFor names nClasses classes and marks the nominal columns.
func schemaFor(nominal []bool, d, nClasses int) learn.Schema {
	s := learn.Schema{}
	for j := 0; j < d; j++ {
		s.Features = append(s.Features, learn.Feature{Name: fmt.Sprintf("x%d", j), Nominal: j < len(nominal) && nominal[j]})
	}
	for k := 0; k < nClasses; k++ {
		s.Classes = append(s.Classes, fmt.Sprint(k))
	}
	return s
}

func fitRun(t *testing.T, r goldenRun, X [][]float64, y []int, s learn.Schema) *fuzzycart.Model {
	t.Helper()
	v, err := fuzzycart.Spec.Resolve(r.Config)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := fuzzycart.Spec.New(v, r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.(*fuzzycart.Trainer).FitModel(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// pairs renders [name, class] pairs.
func pairs(names []string, classes []int) [][2]any {
	out := make([][2]any, len(names))
	for i := range names {
		out[i] = [2]any{names[i], float64(classes[i])}
	}
	return out
}

// checkRun compares a fit with the reference's: the tree (node names and
// classes in creation order), the stale prediction list when the reference
// kept one, the counts, and the predictions and predict_proba bit for bit.
func checkRun(t *testing.T, r goldenRun, m *fuzzycart.Model, Xtr, Xte [][]float64) (same bool) {
	t.Helper()
	ok := true
	fail := func(format string, a ...any) {
		t.Helper()
		ok = false
		t.Errorf(format, a...)
	}
	if got := pairs(m.NodeNames()); !slices.Equal(got, r.Nodes) {
		fail("tree:\n got %v\nwant %v", got, r.Nodes)
	}
	if m.Stale != (r.Cached != nil) {
		fail("stale prediction list: got %v, reference cached %v", m.Stale, r.Cached != nil)
	} else if r.Cached != nil {
		if got := pairs(m.PredictionList()); !slices.Equal(got, r.Cached) {
			fail("cached list:\n got %v\nwant %v", got, r.Cached)
		}
	}
	c := m.Complexity()
	if c.Leaves != r.Leaves || c.InternalNodes != r.Internal {
		fail("leaves/internal %d/%d, want %d/%d", c.Leaves, c.InternalNodes, r.Leaves, r.Internal)
	}
	if got := m.Predict(Xtr); !slices.Equal(got, r.TrainPred) {
		fail("training predictions differ at %d rows", diffCount(got, r.TrainPred))
	}
	if got := m.Predict(Xte); !slices.Equal(got, r.TestPred) {
		fail("test predictions differ at %d rows", diffCount(got, r.TestPred))
	}
	proba := m.PredictProba(Xte)
	for i, row := range r.TestProba {
		for c, want := range row {
			if got := proba[i][r.Classes[c]]; got != want {
				fail("predict_proba row %d class %d: %v, want %v", i, r.Classes[c], got, want)
				return false
			}
		}
	}
	return ok
}

func diffCount(a, b []int) int {
	n := 0
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			n++
		}
	}
	return n + max(0, len(b)-len(a))
}

// TestSyntheticGolden fits every configuration of testdata/synthetic.json
// (our data, the reference's outputs) and requires identical trees,
// predictions and scores.
func TestSyntheticGolden(t *testing.T) {
	g := readGolden(t, "testdata/synthetic.json")
	if len(g.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range g.Cases {
		nClasses := 0
		for _, k := range c.YTrain {
			nClasses = max(nClasses, k+1)
		}
		s := schemaFor(c.Nominal, len(c.XTrain[0]), nClasses)
		for _, r := range c.Runs {
			t.Run(fmt.Sprintf("%s/%v", c.Name, learn.Values(r.Config)), func(t *testing.T) {
				m := fitRun(t, r, c.XTrain, c.YTrain, s)
				checkRun(t, r, m, c.XTrain, c.XTest)
			})
		}
	}
}
