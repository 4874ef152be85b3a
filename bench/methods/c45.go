package methods

import (
	"github.com/fgrtbench/fgrtbench/baselines/c45"
	"github.com/fgrtbench/fgrtbench/learn"
)

// newC45 builds a J48 trainer from a validated config; the unit seed is
// unused (J48 is deterministic).
func newC45(cfg Config, _ int64) (learn.Trainer, error) {
	c := c45.Config{
		Confidence:     cfg.Float("confidence"),
		MinObj:         cfg.Int("min_obj"),
		Unpruned:       cfg.Bool("unpruned"),
		SubtreeRaising: cfg.Bool("subtree_raising"),
		Collapse:       cfg.Bool("collapse"),
	}
	return c45.New(c)
}

func init() {
	Register(&Method{
		Name:    "c45",
		Version: 1,
		Doc: "C4.5 release 8 as Weka 3.6 J48 runs it (gain ratio with the average-gain filter, MDL-corrected " +
			"numeric thresholds snapped to training values, multiway nominal splits, fractional instances for " +
			"missing values, collapsing, pessimistic pruning with subtree raising); default = J48 -C 0.25 -M 2. " +
			"Grid \"text\" varies the pruning confidence {0.1, 0.25}: the paper text names no C4.5 grid that J48 " +
			"could run (its max_depth {5, 10} has no J48 counterpart), so this is the nearest pruning-strength grid.",
		Params: []Param{
			{Name: "confidence", Kind: Float, Default: "0.25", Min: 0, Max: 0.5, HasMin: true, HasMax: true,
				Doc: "pruning confidence factor (J48 -C), in (0, 0.5]; smaller prunes more"},
			{Name: "min_obj", Kind: Int, Default: "2", Min: 1, HasMin: true,
				Doc: "minimum number of instances per leaf (J48 -M)"},
			{Name: "unpruned", Kind: Bool, Default: "false",
				Doc: "skip pessimistic pruning (J48 -U); collapsing still applies, as in Weka 3.6"},
			{Name: "subtree_raising", Kind: Bool, Default: "true",
				Doc: "allow pruning to replace a node by its largest branch (false = J48 -S)"},
			{Name: "collapse", Kind: Bool, Default: "true",
				Doc: "collapse subtrees that do not reduce training error (always on in Weka 3.6)"},
		},
		Grids: map[string]Grid{
			"default": {{}},
			"text":    {{"confidence": "0.1"}, {"confidence": "0.25"}},
		},
		New: newC45,
	})
}
