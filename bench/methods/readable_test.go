package methods

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// TestThresholdKinds: artifacts.ThresholdKinds, which the views use to tell
// a study stored before readable rules were recorded, names exactly the
// kinds of the registered learners whose models print readable rules
// (learn.ReadableRuler).
func TestThresholdKinds(t *testing.T) {
	d := learntest.Problems()[0]
	seen := map[string]bool{}
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := m.New(m.Defaults(), 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		model, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ds, ok := model.(learn.Describer)
		if !ok {
			continue
		}
		desc, err := ds.Describe(d.Schema)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, readable := model.(learn.ReadableRuler)
		if readable != artifacts.ThresholdKinds[desc.Kind] {
			t.Errorf("%s: kind %s prints readable rules %v, artifacts.ThresholdKinds says %v", name, desc.Kind, readable, artifacts.ThresholdKinds[desc.Kind])
		}
		if readable {
			seen[desc.Kind] = true
		}
	}
	for k := range artifacts.ThresholdKinds {
		if !seen[k] {
			t.Errorf("artifacts.ThresholdKinds names %s, which no registered learner describes", k)
		}
	}
}
