package fuzzycart

import (
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
)

// ReferenceCommit pins the Ex-Fuzzy source this package reproduces.
const ReferenceCommit = "96f0cf2d3fa177cfcb052da2644fbab5336e71ce"

// ReferenceVersion is the Ex-Fuzzy release at ReferenceCommit.
const ReferenceVersion = "2.1.5"

// Spec declares FuzzyCART to the harness (method "fuzzycart"). It is not
// one of the paper's methods.
var Spec = &learn.Spec{
	Name:    "fuzzycart",
	Version: 1,
	Doc: "Ex-Fuzzy " + ReferenceVersion + "'s FuzzyCART (tree_learning.py at commit " + ReferenceCommit[:8] +
		"), bit-exact with the reference by default, its quirks included (apply_ccp_alpha, fix_max_depth, " +
		"fix_q1, fix_q2 correct them); not in the paper. Grid \"default\" (12 points, max_rules x target_metric x " +
		"pruning) is what a study selects from (inner CV under the clean protocol), \"library\" the constructor's defaults.",
	DisplayName: "FuzzyCART (Ex-Fuzzy 2.1.5, not in the paper)",
	Order:       90, // after the paper's methods and the majority baseline
	Params:      params,
	Grids: map[string]learn.Grid{
		"default": selectionGrid(),
		"library": {{}},
	},
	Conformance: []map[string]string{
		{},
		{"target_metric": "purity"},
		{"apply_ccp_alpha": "true", "ccp_alpha": "0.01"},
		{"sample_for_splits": "true", "sample_size": "7"},
		{"target_metric": "purity", "sample_for_splits": "true", "sample_size": "7"},
		{"fix_max_depth": "true", "max_depth": "1", "fix_q1": "true", "fix_q2": "true"},
	},
	New: fromValues,
}

// params declares the constructor's parameters and fit's patience with
// Ex-Fuzzy's defaults (the reference checks none of them; the bounds are
// the values for which its code means something), then the switches.
var params = []learn.Param{
	{Name: "max_rules", Kind: learn.Int, Default: "10", Min: 1, HasMin: true,
		Doc: "stop growing at this many leaves"},
	{Name: "max_depth", Kind: learn.Int, Default: "5", Min: 1, HasMin: true,
		Doc: "accepted and ignored by the reference; enforced only with fix_max_depth"},
	{Name: "coverage_threshold", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
		Doc: "minimum coverage (membership mass / training rows) of a new child"},
	{Name: "min_improvement", Kind: learn.Float, Default: "0.01", Min: 0, HasMin: true,
		Doc: "an iteration whose best criterion is <= this counts toward patience"},
	{Name: "ccp_alpha", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
		Doc: "cost-complexity parameter; the reference's fit ignores it, apply_ccp_alpha prunes with it"},
	{Name: "target_metric", Kind: learn.Enum, Default: "cci", Values: []string{"cci", "purity"},
		Doc: "split criterion: cci = complete classification index (default), purity = fuzzy Gini drop (the paper's FGRT)"},
	{Name: "sample_for_splits", Kind: learn.Enum, Default: "auto", Values: []string{"auto", "true", "false"},
		Doc: "split search on a fresh sample of sample_size rows per node (auto = None: when over 50000 rows)"},
	{Name: "sample_size", Kind: learn.Int, Default: "10000", Min: 1, HasMin: true,
		Doc: "rows drawn (numpy legacy generator, unit seed) for each node's split search when sampling"},
	{Name: "patience", Kind: learn.Int, Default: "3", Min: 1, HasMin: true,
		Doc: "fit's patience: the patience-th low-criterion iteration (cumulative) ends growth"},
	{Name: "apply_ccp_alpha", Kind: learn.Bool, Default: "false",
		Doc: "run the reference's cost_complexity_pruning(X, y, ccp_alpha) after fit (its fit never prunes)"},
	{Name: "fix_max_depth", Kind: learn.Bool, Default: "false",
		Doc: "nodes at depth >= max_depth get no children (the reference never reads max_depth)"},
	{Name: "fix_q1", Kind: learn.Bool, Default: "false",
		Doc: "purity path: split the node holding the best candidate, not its depth-1 ancestor (FGRT's Q1)"},
	{Name: "fix_q2", Kind: learn.Bool, Default: "false",
		Doc: "root predicts the training majority after a break (the reference keeps a cached -1, FGRT's Q2)"},
}

// selectionGrid is the default grid, the inner selection of the clean
// protocol (test-selected under the paper protocol): max_rules 5, 10,
// 20 × target_metric cci, purity × the fit as shipped (ccp_alpha ignored)
// or pruned with ccp_alpha 0.01: 12 points, smaller trees first, so that
// inner-CV ties (earliest point wins) go to the smaller, unpruned tree.
func selectionGrid() learn.Grid {
	var g learn.Grid
	for _, metric := range []string{"cci", "purity"} {
		for _, r := range []int{5, 10, 20} {
			g = append(g, map[string]string{"target_metric": metric, "max_rules": strconv.Itoa(r)})
			g = append(g, map[string]string{"target_metric": metric, "max_rules": strconv.Itoa(r),
				"apply_ccp_alpha": "true", "ccp_alpha": "0.01"})
		}
	}
	return g
}

// settings ties Config to params.
var settings = learn.Settings[Config]{Method: "fuzzycart", Params: params}

// fromValues builds a Trainer from validated values; the unit seed seeds
// the sampling generator (used only when sampling is on).
func fromValues(v learn.Values, seed int64) (learn.Trainer, error) {
	c, err := settings.Decode(v)
	if err != nil {
		return nil, err
	}
	// np.random.seed takes 0..2^32-1; the unit seed is taken modulo 2^32.
	return New(c, uint32(seed))
}
