package plots

import (
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// ablationRecords builds rows of four configurations on two data sets and
// two folds: accuracy = base(config) + 0.1 (data set B) + 0.01*fold, rules =
// 2*max_rules.
func ablationRecords(method, selection string) []results.Record {
	type cfg struct {
		s    string
		base float64
		mr   int
	}
	cfgs := []cfg{
		{"coverage_threshold=0.01;max_rules=5;min_improvement=0.01", 0.60, 5},
		{"coverage_threshold=0.01;max_rules=10;min_improvement=0.01", 0.70, 10},
		{"coverage_threshold=0;max_rules=10;min_improvement=0.01", 0.50, 10},
		{"coverage_threshold=0.01;max_rules=10;min_improvement=0", 0.40, 10},
	}
	var recs []results.Record
	for ci, c := range cfgs {
		for di, d := range []string{"A", "B"} {
			for f := 0; f < 2; f++ {
				recs = append(recs, results.Record{
					Protocol: "paper", Dataset: d, Method: method, Config: c.s, ConfigIndex: ci, Selection: selection,
					Fold: f, Accuracy: c.base + 0.1*float64(di) + 0.01*float64(f), Rules: 2 * c.mr,
				})
			}
		}
	}
	// Rows of other methods and protocols must be ignored.
	recs = append(recs, results.Record{Protocol: "clean", Dataset: "A", Method: method, Config: cfgs[0].s, Selection: selection, Accuracy: 0},
		results.Record{Protocol: "paper", Dataset: "A", Method: "cart", Config: "criterion=gini", Selection: "fixed", Accuracy: 0})
	return recs
}

func findGroup(gs []analysis.AblationGroup, param, value string) (analysis.AblationGroup, bool) {
	for _, g := range gs {
		if g.Param == param && g.Value == value {
			return g, true
		}
	}
	return analysis.AblationGroup{}, false
}

func TestPooledVersusOFATGrouping(t *testing.T) {
	pooled, err := analysis.PooledAblation(ablationRecords("fgrt", "test"), "fgrt", "paper")
	if err != nil {
		t.Fatal(err)
	}
	ofat, err := analysis.OFATAblation(ablationRecords("fgrt@ofat", "sweep"), "fgrt@ofat", "paper")
	if err != nil {
		t.Fatal(err)
	}
	// Row spread of base+0.1*dataset+0.01*fold over 4 rows of one config:
	// values b, b+.01, b+.1, b+.11 -> ddof-1 std.
	// Mean 0.055; squared deviations sum to 2·0.055² + 2·0.045² = 0.0101.
	oneCfgStd := math.Sqrt(0.0101 / 3)
	foldStd := 0.01 / math.Sqrt2 // fold means b+0.05 and b+0.06
	tests := []struct {
		name            string
		groups          []analysis.AblationGroup
		param, value    string
		rows, configs   int
		accMean, accStd float64
		rulesMean       float64
	}{
		// Pooled: max_rules=10 pools the three configurations with 10 rules.
		{"pooled max_rules=10", pooled, "max_rules", "10", 12, 3, (0.7+0.5+0.4)/3 + 0.055, math.NaN(), 20},
		{"pooled max_rules=5", pooled, "max_rules", "5", 4, 1, 0.655, oneCfgStd, 10},
		// coverage 0.01 pools max_rules 5 and 10: the other factor is not held fixed.
		{"pooled coverage=0.01", pooled, "coverage_threshold", "0.01", 12, 3, (0.6+0.7+0.4)/3 + 0.055, math.NaN(), (10 + 20 + 20) / 3.0},
		{"pooled min_improvement=0", pooled, "min_improvement", "0", 4, 1, 0.455, oneCfgStd, 20},
		// OFAT: only the configuration at the other factors' baselines.
		{"ofat max_rules=10", ofat, "max_rules", "10", 4, 1, 0.755, foldStd, 20},
		{"ofat max_rules=5", ofat, "max_rules", "5", 4, 1, 0.655, foldStd, 10},
		{"ofat coverage=0.01", ofat, "coverage_threshold", "0.01", 4, 1, 0.755, foldStd, 20},
		{"ofat coverage=0", ofat, "coverage_threshold", "0", 4, 1, 0.555, foldStd, 20},
		{"ofat min_improvement=0", ofat, "min_improvement", "0", 4, 1, 0.455, foldStd, 20},
	}
	for _, tc := range tests {
		g, ok := findGroup(tc.groups, tc.param, tc.value)
		if !ok {
			t.Errorf("%s: no group", tc.name)
			continue
		}
		if g.Rows != tc.rows || g.Configs != tc.configs {
			t.Errorf("%s: %d rows of %d configs, want %d of %d", tc.name, g.Rows, g.Configs, tc.rows, tc.configs)
		}
		if math.Abs(g.AccMean-tc.accMean) > 1e-12 || math.Abs(g.RulesMean-tc.rulesMean) > 1e-12 {
			t.Errorf("%s: acc %v rules %v, want %v %v", tc.name, g.AccMean, g.RulesMean, tc.accMean, tc.rulesMean)
		}
		if !math.IsNaN(tc.accStd) && math.Abs(g.AccStd-tc.accStd) > 1e-12 {
			t.Errorf("%s: acc std %v, want %v", tc.name, g.AccStd, tc.accStd)
		}
	}
	if len(pooled) != 2+2+2 || len(ofat) != 6 {
		t.Errorf("%d pooled and %d OFAT groups, want 6 and 6", len(pooled), len(ofat))
	}
	// The OFAT grouping ignores rows that are not from a sweep.
	if g, _ := analysis.OFATAblation(ablationRecords("fgrt@ofat", "test"), "fgrt@ofat", "paper"); len(g) != 0 {
		t.Errorf("non-sweep rows grouped: %v", g)
	}
}

func TestAblationBadConfig(t *testing.T) {
	recs := []results.Record{{Protocol: "paper", Method: "fgrt", Config: "max_rules=5"}}
	if _, err := analysis.PooledAblation(recs, "fgrt", "paper"); err == nil {
		t.Error("missing parameters: no error")
	}
	recs[0].Config = "garbage"
	if _, err := analysis.PooledAblation(recs, "fgrt", "paper"); err == nil {
		t.Error("unparsable config: no error")
	}
}

func TestAblationGolden(t *testing.T) {
	recs := append(ablationRecords("fgrt", "test"), ablationRecords("fgrt-fixed", "test")...)
	for i := range recs {
		if recs[i].Method == "fgrt-fixed" {
			recs[i].Accuracy += 0.03
		}
	}
	checkFigure(t, "ablation_pooled", func(dir, name string) error { return AblationPooled(dir, name, recs, paperMethods) })
	ofat := ablationRecords("fgrt@ofat", "sweep")
	checkFigure(t, "ablation_ofat", func(dir, name string) error { return AblationOFAT(dir, name, ofat, "paper", paperMethods) })
	if err := AblationOFAT(t.TempDir(), "x", recs, "paper", paperMethods); err != ErrNoData {
		t.Errorf("no sweep rows: err %v, want ErrNoData", err)
	}
}
