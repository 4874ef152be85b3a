package fgrt

import (
	"slices"
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
)

// Spec declares FGRT to the harness (method "fgrt"); OptSpec declares
// FGRT* ("fgrt-opt"). Config.Validate checks the bounds their parameters
// declare.
var (
	Spec = &learn.Spec{
		Name:    "fgrt",
		Version: 1,
		Doc: "FGRT (the authors' FuzzyCART, purity mode) on ex-fuzzy quantile partitions, bit-exact with " +
			"the reference by default (quirks Q1-Q3 on; fix_q* switch them off). Prepare fits the " +
			"partitions; grid \"default\" is the paper's 16 configurations, \"ofat\" a one-factor-at-a-time " +
			"sweep, \"fixed\" max_rules 15 / coverage 0.01 / min_improvement 0.01.",
		DisplayName: "FGRT",
		Order:       10,
		PaperColumn: "FGRT",
		// The paper study's variant with quirks Q1 and Q2 fixed.
		Labels: map[string]string{"fgrt-fixed": "FGRT (Q1+Q2 fixed)"},
		Timed:  true,
		Params: params,
		Grids:  grids(),
		New:    learn.Constructor(settings, New),
	}
	OptSpec = &learn.Spec{
		Name:    "fgrt-opt",
		Version: 1,
		Doc: "FGRT*: FGRT on partitions optimised by the separability index (strategy grid = the " +
			"committed results). Prepare optimises with the given rows' labels.",
		DisplayName: "FGRT*",
		Order:       20,
		PaperColumn: "FGRT*",
		Params:      optParams,
		Grids:       grids(),
		New:         learn.Constructor(optSettings, New),
	}
)

// params declares FGRT's parameters; the defaults are the reference
// constructor's (max_rules 10, coverage 0, min_improvement 0.01, patience 3)
// with every quirk reproduced. optParams adds FGRT*'s.
var (
	params = []learn.Param{
		{Name: "max_rules", Kind: learn.Int, Default: "10", Min: 1, HasMin: true,
			Doc: "stop growing at this many leaves"},
		{Name: "coverage_threshold", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimum coverage (membership mass / training rows) of a new child"},
		{Name: "min_improvement", Kind: learn.Float, Default: "0.01", Min: 0, HasMin: true,
			Doc: "soft stop: the patience-th iteration with best gain <= this ends growth"},
		{Name: "patience", Kind: learn.Int, Default: "3", Min: 1, HasMin: true,
			Doc: "number of low-gain iterations (cumulative) that ends growth"},
		{Name: "partition", Kind: learn.Enum, Default: "quantile", Values: []string{"quantile", "paper"},
			Doc: "numeric partitions: quantile = ex-fuzzy's (what the code runs), paper = the paper text's shape"},
		{Name: "fix_q1", Kind: learn.Bool, Default: "false",
			Doc: "split the node that holds the best candidate, not its depth-1 ancestor (quirk Q1)"},
		{Name: "fix_q2", Kind: learn.Bool, Default: "false",
			Doc: "root predicts its majority class even after a break (reference: -1, quirk Q2)"},
		{Name: "fix_q3", Kind: learn.Bool, Default: "false",
			Doc: "FGRT*: optimised Low starts at xmin-1e-4 so the column minimum is Low (quirk Q3)"},
		{Name: "early_stop_threshold", Kind: learn.Float, Default: "0", Min: 0, HasMin: true,
			Doc: "reference option used only in its runtime study (0.05 there): stop a node's candidate scan at the first new best with gain >= this; 0 = off"},
		{Name: "out_of_range", Kind: learn.Enum, Default: "reference", Values: []string{"reference", "clamp"},
			Doc: "test values outside the fitted range: reference = membership 0 in every term, clamp = move to the range"},
	}
	optParams = append(slices.Clip(params),
		learn.Param{Name: "strategy", Kind: learn.Enum, Default: "grid", Values: []string{"grid", "coordinate", "hybrid"},
			Doc: "partition search: grid = committed FGRT* results, coordinate = paper text, hybrid = library default"},
		learn.Param{Name: "fix_int_matrix", Kind: learn.Bool, Default: "false",
			Doc: "do not emulate the reference's int64 matrix quirk (on an all-integer matrix its optimiser truncates ramp memberships to 0)"})
)

// paperGrid is the authors' 16 configurations in their list order
// (docs/protocols.md#fgrt-grid-and-test-fold-selection); per-fold test selection resolves ties to
// the earliest point.
func paperGrid() learn.Grid {
	pts := [][3]string{
		{"5", "0.01", "0.01"}, {"10", "0.01", "0.01"}, {"15", "0.01", "0.01"}, {"20", "0.01", "0.01"}, {"30", "0.01", "0.01"},
		{"15", "0", "0.01"}, {"15", "0.03", "0.01"}, {"15", "0.05", "0.01"}, {"15", "0.1", "0.01"},
		{"15", "0.01", "0"}, {"15", "0.01", "0.005"}, {"15", "0.01", "0.02"}, {"15", "0.01", "0.05"},
		{"20", "0.03", "0.01"}, {"10", "0.05", "0.005"}, {"25", "0.01", "0.005"},
	}
	g := make(learn.Grid, len(pts))
	for i, p := range pts {
		g[i] = map[string]string{"max_rules": p[0], "coverage_threshold": p[1], "min_improvement": p[2]}
	}
	return g
}

// ofatGrid varies one factor at a time around max_rules 15, coverage 0.01,
// min_improvement 0.01: the max_rules sweep (which contains the baseline),
// then coverage, then min_improvement, each without the baseline again.
func ofatGrid() learn.Grid {
	const baseCov, baseImp = "0.01", "0.01"
	var g learn.Grid
	for _, r := range []int{5, 10, 15, 20, 25, 30} {
		g = append(g, map[string]string{"max_rules": strconv.Itoa(r), "coverage_threshold": baseCov, "min_improvement": baseImp})
	}
	for _, c := range []string{"0", "0.03", "0.05", "0.1"} {
		g = append(g, map[string]string{"max_rules": "15", "coverage_threshold": c, "min_improvement": baseImp})
	}
	for _, m := range []string{"0", "0.005", "0.02", "0.05"} {
		g = append(g, map[string]string{"max_rules": "15", "coverage_threshold": baseCov, "min_improvement": m})
	}
	return g
}

func grids() map[string]learn.Grid {
	return map[string]learn.Grid{
		"default": paperGrid(),
		"ofat":    ofatGrid(),
		"fixed":   {{"max_rules": "15", "coverage_threshold": "0.01", "min_improvement": "0.01"}},
	}
}

// settings declares Spec's Config: its parameters over the defaults of
// FGRT*'s, which it does not expose, with Optimize off; optSettings
// declares OptSpec's, every parameter, with Optimize on. A configuration
// naming a parameter of the other spec is refused. FGRT is deterministic,
// so their constructors ignore the unit seed.
var (
	settings    = learn.Settings[Config]{Method: "fgrt", Params: params, Base: learn.Settings[Config]{Params: optParams}.Defaults()}
	optSettings = learn.Settings[Config]{Method: "fgrt", Params: optParams, Base: Config{Optimize: true}}
)
