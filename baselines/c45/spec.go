package c45

import "github.com/fgrtbench/fgrtbench/learn"

// Spec declares J48 to the harness (method "c45"). Config.Validate checks
// the bounds its parameters declare.
var Spec = &learn.Spec{
	Name:    "c45",
	Version: 1,
	Doc: "C4.5 release 8 as Weka 3.6 J48 runs it (gain ratio with the average-gain filter, MDL-corrected " +
		"numeric thresholds snapped to training values, multiway nominal splits, fractional instances for " +
		"missing values, collapsing, pessimistic pruning with subtree raising); default = J48 -C 0.25 -M 2. " +
		"Grid \"text\" varies the pruning confidence {0.1, 0.25}: the paper text names no C4.5 grid that J48 " +
		"could run (its max_depth {5, 10} has no J48 counterpart), so this is the nearest pruning-strength grid.",
	DisplayName: "C4.5 (J48)",
	Order:       50,
	PaperColumn: "C4.5",
	Timed:       true,
	Params:      params,
	Grids: map[string]learn.Grid{
		"default": {{}},
		"text":    {{"confidence": "0.1"}, {"confidence": "0.25"}},
	},
	New: learn.Constructor(settings, New),
}

// params declares J48's options with its defaults (-C 0.25 -M 2).
var params = []learn.Param{
	{Name: "confidence", Kind: learn.Float, Default: "0.25", Min: 0, Max: 0.5, HasMin: true, HasMax: true,
		Doc: "pruning confidence factor (J48 -C), in (0, 0.5]; smaller prunes more"},
	{Name: "min_obj", Kind: learn.Int, Default: "2", Min: 1, HasMin: true,
		Doc: "minimum number of instances per leaf (J48 -M)"},
	{Name: "unpruned", Kind: learn.Bool, Default: "false",
		Doc: "skip pessimistic pruning (J48 -U); collapsing still applies, as in Weka 3.6"},
	{Name: "subtree_raising", Kind: learn.Bool, Default: "true",
		Doc: "allow pruning to replace a node by its largest branch (false = J48 -S)"},
	{Name: "collapse", Kind: learn.Bool, Default: "true",
		Doc: "collapse subtrees that do not reduce training error (always on in Weka 3.6)"},
}

// settings ties Config to params; J48 is deterministic, so its
// constructor ignores the unit seed.
var settings = learn.Settings[Config]{Method: "c45", Params: params}
