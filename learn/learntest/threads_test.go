package learntest

import (
	"errors"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// threadedMajority is majority with a CPU budget; its fault changes what
// a fit with a budget does.
type threadedMajority struct {
	majority
	budget *par.Budget
}

func (t threadedMajority) WithThreads(b *par.Budget) learn.Trainer {
	if t.fault == "threads-type" {
		return majority{}
	}
	t.budget = b
	return t
}

func (t threadedMajority) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	m, err := t.majority.Fit(X, y, s)
	if err != nil || t.budget == nil {
		return m, err
	}
	// Spread a loop, as a learner does, so that the budget is used.
	t.budget.For(len(y), func(i int) { _ = y[i] })
	if t.fault == "threads-model" {
		mm := m.(*majorityModel)
		mm.class = (mm.class + 1) % s.NumClasses()
	}
	return m, nil
}

func threadedSubject(fault string) Subject {
	return Subject{Name: "threaded-" + fault, New: func(int64) (learn.Trainer, error) {
		return threadedMajority{majority: majority{fault: fault}}, nil
	}}
}

// TestCheckThreads: a Threaded learner whose fits agree passes, one whose
// parallel fit gives another model or whose WithThreads changes its type
// is caught, and a learner that is not Threaded is exempt.
func TestCheckThreads(t *testing.T) {
	d := ThreadsData()
	if len(d.XTrain) != ThreadsRows || len(d.XTrain[0]) != len(d.Schema.Features) {
		t.Fatalf("ThreadsData: %d rows of %d values", len(d.XTrain), len(d.XTrain[0]))
	}
	for _, tc := range []struct {
		subject Subject
		want    string
	}{
		{threadedSubject(""), ""},
		{subject(""), ""},
		{threadedSubject("threads-model"), "4 threads and serial give different models: rules"},
		{threadedSubject("threads-type"), "WithThreads turned a learntest.threadedMajority into a learntest.majority"},
	} {
		t.Run(tc.subject.Name, func(t *testing.T) {
			err := errors.Join(CheckThreads(tc.subject, d)...)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected violation: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want a violation mentioning %q", err, tc.want)
			}
		})
	}
}
