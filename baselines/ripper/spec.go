package ripper

import "github.com/fgrtbench/fgrtbench/learn"

// Spec declares RIPPER to the harness (method "ripper"): wittgenstein
// v0.3.x semantics, multiclass through scikit-learn's one-vs-rest. The
// unit seed seeds the grow/prune splits (wittgenstein's default
// random_state=None makes them random per run). Config.Validate checks the
// bounds its parameters declare.
var Spec = &learn.Spec{
	Name:        "ripper",
	Version:     1,
	Doc:         "RIPPER (wittgenstein v0.3 semantics: quantile bins, IREP*, k optimisation passes, DL pruning; one-vs-rest as scikit-learn)",
	DisplayName: "RIPPER",
	Order:       60,
	PaperColumn: "RIPPER",
	Timed:       true,
	Params:      params,
	Grids:       map[string]learn.Grid{"default": {{}}},
	Stochastic:  true,
	New:         learn.Constructor(settings, New),
}

// params declares wittgenstein's options with its defaults.
var params = []learn.Param{
	{Name: "k", Kind: learn.Int, Default: "2", Min: 0, HasMin: true, Doc: "optimisation passes"},
	{Name: "prune_size", Kind: learn.Float, Default: "0.33", Min: 0.0001, Max: 0.9999, HasMin: true, HasMax: true, Doc: "share of remaining examples held out for pruning, in (0,1)"},
	{Name: "dl_allowance", Kind: learn.Int, Default: "64", Min: 0, HasMin: true, Doc: "bits above the best description length before rule growth stops"},
	{Name: "n_discretize_bins", Kind: learn.Int, Default: "10", Min: 1, HasMin: true, Doc: "maximum equal-frequency bins per numeric column"},
	{Name: "max_rules", Kind: learn.Int, Default: "0", Min: 0, HasMin: true, Doc: "maximum rules per rule set (0 = no limit)"},
	{Name: "max_rule_conds", Kind: learn.Int, Default: "0", Min: 0, HasMin: true, Doc: "maximum conditions per rule (0 = no limit)"},
}

// settings ties Config to params; Alpha is a setting no parameter exposes,
// and the unit's seed seeds the grow/prune splits.
var settings = learn.Settings[Config]{Method: "ripper", Params: params, Base: Config{Alpha: 1},
	Seed: func(c *Config, seed int64) { c.Seed = seed }}
