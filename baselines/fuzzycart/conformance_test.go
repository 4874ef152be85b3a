package fuzzycart_test

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestConformance holds the learner to the contract of package learn.
func TestConformance(t *testing.T) {
	learntest.RunSpec(t, fuzzycart.Spec)
}
