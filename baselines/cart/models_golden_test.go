package cart_test

import (
	"flag"
	"github.com/fgrtbench/fgrtbench/results/modeltest"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/cart"
)

var update = flag.Bool("update", false, "rewrite the golden testdata/models-*.jsonl (only to add a new one)")

// TestModelsGolden pins the descriptions (models.jsonl) of the package's
// methods on three folds of wine and checks, on those real rows, that
// each rebuilds from its decoded JSON with the model's predictions.
func TestModelsGolden(t *testing.T) {
	t.Run(cart.Spec.Name, func(t *testing.T) {
		modeltest.GoldenModels(t, cart.Spec, "wine", "testdata/models-"+cart.Spec.Name+".jsonl", *update)
	})
	t.Run(cart.EntropySpec.Name, func(t *testing.T) {
		modeltest.GoldenModels(t, cart.EntropySpec, "wine", "testdata/models-"+cart.EntropySpec.Name+".jsonl", *update)
	})
}
