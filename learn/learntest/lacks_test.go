package learntest

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// described is the majority learner whose models describe themselves
// under a kind no package registers.
type described struct{ majority }

type describedModel struct{ *majorityModel }

func (t described) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	m, err := t.majority.Fit(X, y, s)
	if err != nil {
		return nil, err
	}
	return describedModel{m.(*majorityModel)}, nil
}

func (describedModel) Describe(s learn.Schema) (learn.Description, error) {
	return learn.Description{ModelHead: learn.ModelHead{Kind: "learntest.unregistered/1"}, Model: []byte("{}")}, nil
}

// TestLacks: each interface a subject implements leaves the list, in the
// order of Optionals; a description of an unregistered kind still lacks
// RegisterModel.
func TestLacks(t *testing.T) {
	calls := &atomic.Int64{}
	all := make([]string, len(Optionals))
	for i, o := range Optionals {
		all[i] = o.Name
	}
	for _, tc := range []struct {
		name string
		tr   learn.Trainer
		want string
	}{
		{"none", majority{calls: calls}, strings.Join(all, " ")},
		{"trainer interfaces", optional{majority: majority{calls: calls}},
			"learn.Describer learn.RegisterModel learn.Scorer learn.ReadableRuler learn.Threaded learn.GroupPredictor"},
		{"unregistered kind", described{majority{calls: calls}},
			"learn.RegisterModel learn.Scorer learn.ReadableRuler learn.Threaded learn.Preparer learn.SharedPreparer learn.GroupFitter learn.GroupPredictor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lacks, err := Lacks(Subject{Name: tc.name, New: func(int64) (learn.Trainer, error) { return tc.tr, nil }})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range lacks {
				got = append(got, o.Name)
				if o.Loss == "" {
					t.Errorf("%s: no loss said", o.Name)
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("lacks %q, want %q", g, tc.want)
			}
		})
	}
}
