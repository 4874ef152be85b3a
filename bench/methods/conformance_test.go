package methods

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// fastOverrides shrink slow learners for the conformance suite; they do not
// change which code paths run.
var fastOverrides = map[string]map[string]string{
	"fga": {"generations": "5", "population": "10"},
}

// TestConformance runs the learner contract's conformance suite on every
// registered method with its default configuration: registering a learner
// is enough to be held to the contract.
func TestConformance(t *testing.T) {
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := m.Resolve(fastOverrides[name])
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			learntest.Run(t, learntest.Subject{Name: name, New: func(seed int64) (learn.Trainer, error) { return m.New(cfg, seed) }})
		})
	}
}
