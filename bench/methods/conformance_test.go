package methods

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestConformance runs the learner contract's conformance suite on every
// registered method as the registry holds it (each learner package runs it
// on its own spec too): registering a learner is enough to be held to the
// contract, optional interfaces included.
func TestConformance(t *testing.T) {
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		learntest.RunSpec(t, m)
	}
}

// TestWhatEachLearnerLacks pins, method by method, the optional interfaces
// of package learn the conformance suite reports missing (learntest.Lacks),
// so that adding one (or losing one) shows here and in the guide's table.
func TestWhatEachLearnerLacks(t *testing.T) {
	const group = "learn.Preparer learn.SharedPreparer learn.GroupFitter learn.GroupPredictor"
	want := map[string]string{
		"fgrt":        "learn.ReadableRuler",
		"fgrt-opt":    "learn.ReadableRuler",
		"cart":        "learn.Preparer learn.SharedPreparer learn.GroupPredictor",
		"c45-entropy": "learn.Preparer learn.SharedPreparer learn.GroupPredictor",
		"c45":         group,
		"ripper":      "learn.Scorer learn.Threaded " + group,
		"fga":         "learn.ReadableRuler learn.SharedPreparer learn.GroupFitter learn.GroupPredictor",
		"majority":    "learn.Describer learn.RegisterModel learn.Scorer learn.ReadableRuler learn.Threaded " + group,
		"fuzzycart":   "learn.ReadableRuler " + group,
	}
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := m.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		lacks, err := learntest.Lacks(learntest.Subject{Name: name,
			New: func(seed int64) (learn.Trainer, error) { return m.New(cfg, seed) }})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range lacks {
			got = append(got, o.Name)
		}
		w, known := want[name]
		if !known {
			continue // a learner added after this table (TestAddingALearner's)
		}
		if g := strings.Join(got, " "); g != w {
			t.Errorf("%s lacks %q, want %q", name, g, w)
		}
	}
}
