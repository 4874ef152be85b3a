package fga_test

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fga"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestConformance holds the package's declared methods to the learner
// contract, optional interfaces included, from the package's own tests.
func TestConformance(t *testing.T) {
	learntest.RunSpec(t, fga.Spec)
}
