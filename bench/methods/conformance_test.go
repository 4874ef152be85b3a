package methods

import (
	"maps"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// fastOverrides shrink slow learners for the conformance suite; they do not
// change which code paths run.
var fastOverrides = map[string]map[string]string{
	"fga": {"generations": "5", "population": "10"},
}

// conformanceVariants are non-default configurations that run code paths
// of their own (FGA's fixed partitions: no membership genes, partitions
// built once, inputs clipped), held to the contract beside the defaults.
var conformanceVariants = map[string][]map[string]string{
	"fga": {{"partitions": "fixed"}, {"partitions": "fixed", "partition": "paper"}},
}

// TestConformance runs the learner contract's conformance suite on every
// registered method with its default configuration (and the variants
// above): registering a learner is enough to be held to the contract.
func TestConformance(t *testing.T) {
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range append([]map[string]string{nil}, conformanceVariants[name]...) {
			overrides := maps.Clone(fastOverrides[name])
			if overrides == nil {
				overrides = map[string]string{}
			}
			maps.Copy(overrides, variant)
			cfg, err := m.Resolve(overrides)
			if err != nil {
				t.Fatal(err)
			}
			sub := name
			if variant != nil {
				sub += "/" + Config(variant).String()
			}
			t.Run(sub, func(t *testing.T) {
				learntest.Run(t, learntest.Subject{Name: sub, New: func(seed int64) (learn.Trainer, error) { return m.New(cfg, seed) }})
			})
		}
	}
}
