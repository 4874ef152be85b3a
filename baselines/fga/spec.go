package fga

import "github.com/fgrtbench/fgrtbench/learn"

// Spec declares FGA to the harness (method "fga"): ex-fuzzy's genetic
// fuzzy rule classifier (evolved type-1 partitions by default, or fixed
// quantile partitions with partitions=fixed; dominance-score winner rule,
// training-MCC fitness) under pymoo's GA. Every protocol defaults to
// evolved partitions, the setting of the authors' runtime script;
// partitions=fixed is the setting the paper's text describes and the one
// its FGA column matches on the holdout split. The unit seed seeds every
// random stream; workers only parallelises the population's evaluation and
// never changes a result (a trainer given a CPU budget, learn.Threaded, uses
// the budget's free threads instead). Config.Validate checks the bounds its parameters
// declare.
var Spec = &learn.Spec{
	Name:        "fga",
	Version:     1,
	Doc:         "genetic fuzzy rule classifier (ex-fuzzy BaseFuzzyRulesClassifier, slow-path MCC fitness, pymoo GA with SBX + polynomial mutation)",
	DisplayName: "FGA",
	Order:       70,
	PaperColumn: "FGA",
	Timed:       true,
	Params:      params,
	Grids: map[string]learn.Grid{
		"default": {{}},
		"small":   {{"generations": "20", "population": "20"}},
	},
	Stochastic: true,
	// The conformance suite runs a short search (the same code paths) on
	// evolved partitions and on both kinds of fixed partitions (no
	// membership genes, partitions built once, inputs clipped).
	Conformance: []map[string]string{
		{"generations": "5", "population": "10"},
		{"generations": "5", "population": "10", "partitions": "fixed"},
		{"generations": "5", "population": "10", "partitions": "fixed", "partition": "paper"},
	},
	New: learn.Constructor(settings, New),
}

// params declares FGA's options with the paper's settings as defaults.
var params = []learn.Param{
	{Name: "n_rules", Kind: learn.Int, Default: "15", Min: 1, HasMin: true, Doc: "rule slots per chromosome (nRules)"},
	{Name: "n_ants", Kind: learn.Int, Default: "3", Min: 1, HasMin: true, Doc: "antecedent slots per rule (nAnts, capped at the number of features)"},
	{Name: "n_labels", Kind: learn.Int, Default: "3", Min: 2, Max: 100, HasMin: true, HasMax: true, Doc: "linguistic labels per feature"},
	{Name: "tolerance", Kind: learn.Float, Default: "0.01", Min: 0, HasMin: true, Doc: "dominance-score threshold of the rule purge"},
	{Name: "generations", Kind: learn.Int, Default: "100", Min: 1, HasMin: true, Doc: "GA generations (n_gen; the first evaluates the initial population)"},
	{Name: "population", Kind: learn.Int, Default: "50", Min: 2, HasMin: true, Doc: "population size (pop_size)"},
	{Name: "crossover_prob", Kind: learn.Float, Default: "0.3", Min: 0, Max: 1, HasMin: true, HasMax: true, Doc: "per-mating SBX probability (var_prob)"},
	{Name: "trapezoid", Kind: learn.Enum, Default: "paper", Values: []string{"paper", "head"}, Doc: "membership epsilon: paper-era ex-fuzzy (first label 0 at the training minimum) or ex-fuzzy >= 2026-06 (1 there)"},
	{Name: "partitions", Kind: learn.Enum, Default: "evolved", Values: []string{"evolved", "fixed"}, Doc: "evolved = membership genes in the chromosome (the authors' runtime script); fixed = ex-fuzzy's linguistic_variables path: partitions built once (on all rows under the paper protocol, as FGRT's; on the training set otherwise), rule genes only"},
	{Name: "partition", Kind: learn.Enum, Default: "quantile", Values: []string{"quantile", "paper"}, Doc: "fixed partitions: quantile = ex-fuzzy construct_partitions (0/20/40/60/80/100 percentiles, FGRT's), paper = the paper text's quartile formula (3 labels)"},
	{Name: "workers", Kind: learn.Int, Default: "0", Min: 0, HasMin: true, Doc: "goroutines evaluating the population (0 = GOMAXPROCS); does not change results, so it is not part of the config column or a unit's identity", Execution: true, Proof: [2]string{"1", "3"}},
}

// settings ties Config to params. Base holds the settings no parameter
// exposes; the unit's seed seeds the search.
var settings = learn.Settings[Config]{Method: "fga", Params: params,
	Base: Config{SBXEta: 3, MutationEta: 7, MinDelta: 1e-4},
	Seed: func(o *Config, seed int64) { o.Seed = uint64(seed) }}
