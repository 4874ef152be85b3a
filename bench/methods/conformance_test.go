package methods

import (
	"testing"

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
