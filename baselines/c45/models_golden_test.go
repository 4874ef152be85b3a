package c45_test

import (
	"flag"
	"github.com/fgrtbench/fgrtbench/results/modeltest"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/c45"
)

var update = flag.Bool("update", false, "rewrite the golden testdata/models-*.jsonl (only to add a new one)")

// TestModelsGolden pins the descriptions (models.jsonl) of the package's
// methods on three folds of zoo and checks, on those real rows, that
// each rebuilds from its decoded JSON with the model's predictions.
func TestModelsGolden(t *testing.T) {
	t.Run(c45.Spec.Name, func(t *testing.T) {
		modeltest.GoldenModels(t, c45.Spec, "zoo", "testdata/models-"+c45.Spec.Name+".jsonl", *update)
	})
}
