package methods

import (
	"strconv"

	"github.com/fgrtbench/fgrtbench/fgrt"
	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// fgrtParams declares FGRT's parameters; the defaults are the reference
// constructor's (max_rules 10, coverage 0, min_improvement 0.01, patience 3)
// with every quirk reproduced.
func fgrtParams(optimized bool) []Param {
	ps := []Param{
		{Name: "max_rules", Kind: Int, Default: "10", Min: 1, HasMin: true,
			Doc: "stop growing at this many leaves"},
		{Name: "coverage_threshold", Kind: Float, Default: "0", Min: 0, HasMin: true,
			Doc: "minimum coverage (membership mass / training rows) of a new child"},
		{Name: "min_improvement", Kind: Float, Default: "0.01", Min: 0, HasMin: true,
			Doc: "soft stop: the patience-th iteration with best gain <= this ends growth"},
		{Name: "patience", Kind: Int, Default: "3", Min: 1, HasMin: true,
			Doc: "number of low-gain iterations (cumulative) that ends growth"},
		{Name: "partition", Kind: Enum, Default: "quantile", Values: []string{"quantile", "paper"},
			Doc: "numeric partitions: quantile = ex-fuzzy's (what the code runs), paper = the paper text's shape"},
		{Name: "fix_q1", Kind: Bool, Default: "false",
			Doc: "split the node that holds the best candidate, not its depth-1 ancestor (quirk Q1)"},
		{Name: "fix_q2", Kind: Bool, Default: "false",
			Doc: "root predicts its majority class even after a break (reference: -1, quirk Q2)"},
		{Name: "fix_q3", Kind: Bool, Default: "false",
			Doc: "FGRT*: optimised Low starts at xmin-1e-4 so the column minimum is Low (quirk Q3)"},
		{Name: "early_stop_threshold", Kind: Float, Default: "0", Min: 0, HasMin: true,
			Doc: "reference option used only in its runtime study (0.05 there): stop a node's candidate scan at the first new best with gain >= this; 0 = off"},
		{Name: "out_of_range", Kind: Enum, Default: "reference", Values: []string{"reference", "clamp"},
			Doc: "test values outside the fitted range: reference = membership 0 in every term, clamp = move to the range"},
	}
	if optimized {
		ps = append(ps, Param{Name: "strategy", Kind: Enum, Default: "grid", Values: []string{"grid", "coordinate", "hybrid"},
			Doc: "partition search: grid = committed FGRT* results, coordinate = paper text, hybrid = library default"},
			Param{Name: "fix_int_matrix", Kind: Bool, Default: "false",
				Doc: "do not emulate the reference's int64 matrix quirk (on an all-integer matrix its optimiser truncates ramp memberships to 0)"})
	}
	return ps
}

// paperGrid is the authors' 16 configurations in their list order
// (paper-protocol.md section 5); per-fold test selection resolves ties to
// the earliest point.
func paperGrid() Grid {
	pts := [][3]string{
		{"5", "0.01", "0.01"}, {"10", "0.01", "0.01"}, {"15", "0.01", "0.01"}, {"20", "0.01", "0.01"}, {"30", "0.01", "0.01"},
		{"15", "0", "0.01"}, {"15", "0.03", "0.01"}, {"15", "0.05", "0.01"}, {"15", "0.1", "0.01"},
		{"15", "0.01", "0"}, {"15", "0.01", "0.005"}, {"15", "0.01", "0.02"}, {"15", "0.01", "0.05"},
		{"20", "0.03", "0.01"}, {"10", "0.05", "0.005"}, {"25", "0.01", "0.005"},
	}
	g := make(Grid, len(pts))
	for i, p := range pts {
		g[i] = map[string]string{"max_rules": p[0], "coverage_threshold": p[1], "min_improvement": p[2]}
	}
	return g
}

// ofatGrid varies one factor at a time around max_rules 15, coverage 0.01,
// min_improvement 0.01: the max_rules sweep (which contains the baseline),
// then coverage, then min_improvement, each without the baseline again.
func ofatGrid() Grid {
	const baseCov, baseImp = "0.01", "0.01"
	var g Grid
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

func fgrtGrids() map[string]Grid {
	return map[string]Grid{
		"default": paperGrid(),
		"ofat":    ofatGrid(),
		"fixed":   {{"max_rules": "15", "coverage_threshold": "0.01", "min_improvement": "0.01"}},
	}
}

// newFGRT builds an fgrt.Trainer from a validated config; FGRT is
// deterministic, so the unit seed is ignored.
func newFGRT(optimized bool) func(Config, int64) (learn.Trainer, error) {
	return func(cfg Config, _ int64) (learn.Trainer, error) {
		style, err := fuzzy.ParseStyle(cfg.Str("partition"))
		if err != nil {
			return nil, err
		}
		o := fgrt.DefaultConfig()
		o.MaxRules = cfg.Int("max_rules")
		o.CoverageThreshold = cfg.Float("coverage_threshold")
		o.MinImprovement = cfg.Float("min_improvement")
		o.Patience = cfg.Int("patience")
		o.EarlyStopThreshold = cfg.Float("early_stop_threshold")
		o.FixQ1 = cfg.Bool("fix_q1")
		o.FixQ2 = cfg.Bool("fix_q2")
		o.FixQ3 = cfg.Bool("fix_q3")
		o.Style = style
		o.Clamp = cfg.Str("out_of_range") == "clamp"
		if optimized {
			o.Optimize = true
			if o.Strategy, err = partopt.ParseStrategy(cfg.Str("strategy")); err != nil {
				return nil, err
			}
			o.FixIntMatrix = cfg.Bool("fix_int_matrix")
		}
		return fgrt.New(o)
	}
}

func init() {
	Register(&Method{
		Name:    "fgrt",
		Version: 1,
		Doc: "FGRT (the authors' FuzzyCART, purity mode) on ex-fuzzy quantile partitions, bit-exact with " +
			"the reference by default (quirks Q1-Q3 on; fix_q* switch them off). Prepare fits the " +
			"partitions; grid \"default\" is the paper's 16 configurations, \"ofat\" a one-factor-at-a-time " +
			"sweep, \"fixed\" max_rules 15 / coverage 0.01 / min_improvement 0.01.",
		Params: fgrtParams(false),
		Grids:  fgrtGrids(),
		New:    newFGRT(false),
	})
	Register(&Method{
		Name:    "fgrt-opt",
		Version: 1,
		Doc: "FGRT*: FGRT on partitions optimised by the separability index (strategy grid = the " +
			"committed results). Prepare optimises with the given rows' labels.",
		Params: fgrtParams(true),
		Grids:  fgrtGrids(),
		New:    newFGRT(true),
	})
}
