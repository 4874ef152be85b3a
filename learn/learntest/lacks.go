package learntest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// An Optional is one optional interface of package learn and what the
// harness's users lose with a learner that lacks it
// (docs/adding-a-learner.md#what-your-learner-shows-in-the-report).
type Optional struct {
	Name string // as a learner's code spells it: "learn.Scorer"
	Loss string // what the report, the stored artifacts or the run lack
}

// Optionals lists the optional interfaces in the guide's order, each with
// its loss. learn.RegisterModel is a call, not an interface: a model that
// describes itself under a kind no package registered cannot be rebuilt.
var Optionals = []Optional{
	{"learn.Describer", `the stored model record (models.jsonl.gz) has "kind":"" and holds the rules text alone: no structure, no partitions, nothing to rebuild it from`},
	{"learn.RegisterModel", "learn.Reconstruct cannot rebuild a stored model of its kind"},
	{"learn.Scorer", "predictions.csv.gz has no class scores, so the report shows no AUC and no log-loss for the method"},
	{"learn.ReadableRuler", "the report prints the rules as Rules does: a threshold learner's thresholds in the protocol's scaled units, at full precision, with no note"},
	{"learn.Threaded", "the runner gives its fits no CPU budget: each fit runs on one thread however many are idle"},
	{"learn.Preparer", "the paper protocol's preparation on all rows of a dataset (as the authors' code fits FGRT's partitions) does not apply: each fit prepares on its own training rows, as under the clean protocol"},
	{"learn.SharedPreparer", "configurations fitted on one training set do not share a preparation"},
	{"learn.GroupFitter", "a grid's configurations are fitted one by one on each training set"},
	{"learn.GroupPredictor", "the models of a grid predict one by one"},
}

// Lacks returns the entries of Optionals that the subject does not
// implement, judged on its trainer and on the model it fits on the
// suite's first data set. A learner may lack any of them and still
// conform; the suite reports the list so that its author sees what users
// will miss.
func Lacks(s Subject) ([]Optional, error) {
	tr, err := s.New(1)
	if err != nil {
		return nil, fmt.Errorf("%s: new trainer: %v", s.Name, err)
	}
	d := Problems()[0]
	m, err := tr.Fit(copyMatrix(d.XTrain), slices.Clone(d.YTrain), d.Schema)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: fit: %v", s.Name, d.Name, err)
	}
	has := map[string]bool{}
	_, has["learn.Threaded"] = tr.(learn.Threaded)
	_, has["learn.Preparer"] = tr.(learn.Preparer)
	_, has["learn.SharedPreparer"] = tr.(learn.SharedPreparer)
	_, has["learn.GroupFitter"] = tr.(learn.GroupFitter)
	_, has["learn.GroupPredictor"] = m.(learn.GroupPredictor)
	_, has["learn.Scorer"] = m.(learn.Scorer)
	_, has["learn.ReadableRuler"] = m.(learn.ReadableRuler)
	if desc, ok := m.(learn.Describer); ok {
		has["learn.Describer"] = true
		dd, err := desc.Describe(d.Schema)
		if err != nil {
			return nil, fmt.Errorf("%s on %s: describe: %v", s.Name, d.Name, err)
		}
		has["learn.RegisterModel"] = slices.Contains(learn.Kinds(), dd.Kind)
	}
	var out []Optional
	for _, o := range Optionals {
		if !has[o.Name] {
			out = append(out, o)
		}
	}
	return out, nil
}

// logLacks says, in the test log, which optional interfaces the subject
// lacks and what that costs its users.
func logLacks(t *testing.T, s Subject) {
	t.Helper()
	lacks, err := Lacks(s)
	if err != nil {
		t.Error(err)
		return
	}
	for _, o := range lacks {
		t.Logf("%s lacks %s: %s", s.Name, o.Name, o.Loss)
	}
}
