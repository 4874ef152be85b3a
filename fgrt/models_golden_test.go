package fgrt_test

import (
	"flag"
	"github.com/fgrtbench/fgrtbench/results/modeltest"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt"
)

var update = flag.Bool("update", false, "rewrite the golden testdata/models-*.jsonl (only to add a new one)")

// TestModelsGolden pins the descriptions (models.jsonl) of the package's
// methods on three folds of appendicitis and checks, on those real rows, that
// each rebuilds from its decoded JSON with the model's predictions.
func TestModelsGolden(t *testing.T) {
	t.Run(fgrt.Spec.Name, func(t *testing.T) {
		modeltest.GoldenModels(t, fgrt.Spec, "appendicitis", "testdata/models-"+fgrt.Spec.Name+".jsonl", *update)
	})
	t.Run(fgrt.OptSpec.Name, func(t *testing.T) {
		modeltest.GoldenModels(t, fgrt.OptSpec, "appendicitis", "testdata/models-"+fgrt.OptSpec.Name+".jsonl", *update)
	})
}
