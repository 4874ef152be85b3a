package analysis

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// The ablations of FGRT's grid: per parameter value, the accuracy and rule
// count of the rows that share it (moved here from package plots, whose
// figures draw them).

// AblationParams are the FGRT parameters of the ablation figures, as named
// in results.csv's config column (fgrt/spec.go).
var AblationParams = []string{"max_rules", "coverage_threshold", "min_improvement"}

// AblationGroup summarises the rows of one method that share one value of
// one parameter.
type AblationGroup struct {
	Method string // results.csv method label
	Param  string
	Value  string // as written in the config
	// Rows and Configs count the pooled rows and distinct configurations.
	Rows, Configs int
	// AccMean and RulesMean are means over the rows. AccStd and RulesStd
	// are sample standard deviations (ddof 1; 0 for a single value): over
	// the rows for the pooled grouping, over folds for the one-factor sweep
	// (see OFATAblation).
	AccMean, AccStd     float64
	RulesMean, RulesStd float64
}

// ablationRow is one record with its parsed parameters.
type ablationRow struct {
	rec    results.Record
	params map[string]string
}

func ablationRows(recs []results.Record, method, protocol, selection string) ([]ablationRow, error) {
	var out []ablationRow
	for _, r := range recs {
		if r.Method != method || r.Protocol != protocol || (selection != "" && r.Selection != selection) {
			continue
		}
		cfg, err := learn.ParseValues(r.Config)
		if err != nil {
			return nil, fmt.Errorf("analysis: %s %s fold %d: %v", r.Dataset, r.Method, r.Fold, err)
		}
		for _, p := range AblationParams {
			if _, err := strconv.ParseFloat(cfg[p], 64); err != nil {
				return nil, fmt.Errorf("analysis: %s %s fold %d: config %q has no numeric %s", r.Dataset, r.Method, r.Fold, r.Config, p)
			}
		}
		out = append(out, ablationRow{rec: r, params: cfg})
	}
	return out, nil
}

// sortedValues returns the distinct values of a parameter, numerically.
func sortedValues(rows []ablationRow, param string) []string {
	seen := map[string]bool{}
	var vals []string
	for _, r := range rows {
		if v := r.params[param]; !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		a, _ := strconv.ParseFloat(vals[i], 64)
		b, _ := strconv.ParseFloat(vals[j], 64)
		return a < b
	})
	return vals
}

// meanStd returns the mean and the ddof-1 standard deviation (0 for fewer
// than two values).
func meanStd(v []float64) (mean, std float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range v {
		ss += float64((x - mean) * (x - mean))
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}

func countConfigs(rows []ablationRow) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.rec.Config] = true
	}
	return len(seen)
}

// PooledAblation is the paper's grouping (docs/protocols.md#ablation-figures):
// every row of method in protocol (all configurations, selected or not) is
// grouped by one parameter value, pooling all configurations that share it,
// so groups have different sizes and the other parameters are not held
// fixed. Means and ddof-1 standard deviations are over the pooled rows.
func PooledAblation(recs []results.Record, method, protocol string) ([]AblationGroup, error) {
	rows, err := ablationRows(recs, method, protocol, "")
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var out []AblationGroup
	for _, p := range AblationParams {
		for _, v := range sortedValues(rows, p) {
			var sel []ablationRow
			var acc, rules []float64
			for _, r := range rows {
				if r.params[p] == v {
					sel = append(sel, r)
					acc = append(acc, r.rec.Accuracy)
					rules = append(rules, float64(r.rec.Rules))
				}
			}
			g := AblationGroup{Method: method, Param: p, Value: v, Rows: len(sel), Configs: countConfigs(sel)}
			g.AccMean, g.AccStd = meanStd(acc)
			g.RulesMean, g.RulesStd = meanStd(rules)
			out = append(out, g)
		}
	}
	return out, nil
}

// OFATAblation groups a one-factor-at-a-time sweep (rows of method with
// selection "sweep"): each parameter's baseline is its most frequent value
// over the sweep's configurations (ties: the smallest), and the group of
// parameter p at value v holds only the configurations with v and every
// other parameter at its baseline. The spread is over folds: the mean
// accuracy (rule count) over data sets is taken per (repeat, fold), and
// AccStd (RulesStd) is the ddof-1 deviation of those fold means, so it shows
// how stable the value is rather than how different the data sets are.
func OFATAblation(recs []results.Record, method, protocol string) ([]AblationGroup, error) {
	rows, err := ablationRows(recs, method, protocol, "sweep")
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	baseline := ofatBaseline(rows)
	var out []AblationGroup
	for _, p := range AblationParams {
		for _, v := range sortedValues(rows, p) {
			if g, ok := ofatGroup(rows, baseline, method, p, v); ok {
				out = append(out, g)
			}
		}
	}
	return out, nil
}

// ofatBaseline returns each parameter's baseline: its most frequent value
// over the sweep's configurations (ties: the smallest).
func ofatBaseline(rows []ablationRow) map[string]string {
	baseline := map[string]string{}
	for _, p := range AblationParams {
		count := map[string]int{}
		seenCfg := map[string]bool{}
		for _, r := range rows {
			if !seenCfg[r.rec.Config] {
				seenCfg[r.rec.Config] = true
				count[r.params[p]]++
			}
		}
		best := ""
		for _, v := range sortedValues(rows, p) {
			if best == "" || count[v] > count[best] {
				best = v
			}
		}
		baseline[p] = best
	}
	return baseline
}

// ofatGroup is the group of parameter p at value v: the rows with v and
// every other parameter at its baseline; false when there are none (a
// value that only occurs off-baseline is not part of the one-factor
// sweep).
func ofatGroup(rows []ablationRow, baseline map[string]string, method, p, v string) (AblationGroup, bool) {
	var sel []ablationRow
	var acc, rules []float64
	var folds foldMeans
	for _, r := range rows {
		if r.params[p] != v || !atBaseline(r, baseline, p) {
			continue
		}
		sel = append(sel, r)
		acc = append(acc, r.rec.Accuracy)
		rules = append(rules, float64(r.rec.Rules))
		folds.add(r.rec)
	}
	if len(sel) == 0 {
		return AblationGroup{}, false
	}
	foldAcc, foldRules := folds.means()
	g := AblationGroup{Method: method, Param: p, Value: v, Rows: len(sel), Configs: countConfigs(sel)}
	g.AccMean, _ = meanStd(acc)
	g.RulesMean, _ = meanStd(rules)
	_, g.AccStd = meanStd(foldAcc)
	_, g.RulesStd = meanStd(foldRules)
	return g, true
}

// atBaseline reports whether every parameter of r but p is at its
// baseline.
func atBaseline(r ablationRow, baseline map[string]string, p string) bool {
	for _, q := range AblationParams {
		if q != p && r.params[q] != baseline[q] {
			return false
		}
	}
	return true
}

// repeatFold names one (repeat, fold) of the sweep.
type repeatFold struct{ repeat, fold int }

// foldMeans sums accuracy and rules per (repeat, fold).
type foldMeans struct {
	acc, rules map[repeatFold]float64
	n          map[repeatFold]int
}

func (f *foldMeans) add(r results.Record) {
	if f.n == nil {
		f.acc, f.rules, f.n = map[repeatFold]float64{}, map[repeatFold]float64{}, map[repeatFold]int{}
	}
	k := repeatFold{r.Repeat, r.Fold}
	f.acc[k] += r.Accuracy
	f.rules[k] += float64(r.Rules)
	f.n[k]++
}

// means returns the mean accuracy and rules of each (repeat, fold), in
// repeat and fold order.
func (f *foldMeans) means() (acc, rules []float64) {
	keys := make([]repeatFold, 0, len(f.n))
	for k := range f.n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].repeat != keys[j].repeat {
			return keys[i].repeat < keys[j].repeat
		}
		return keys[i].fold < keys[j].fold
	})
	for _, k := range keys {
		acc = append(acc, f.acc[k]/float64(f.n[k]))
		rules = append(rules, f.rules[k]/float64(f.n[k]))
	}
	return acc, rules
}

// Ablation is one ablation figure's groups: the paper's pooled grouping
// of the 16-configuration grid ("pooled", paper protocol) or the
// one-factor-at-a-time sweep ("ofat") of a protocol.
type Ablation struct {
	Kind     string          `json:"kind"`
	Protocol string          `json:"protocol"`
	Groups   []AblationGroup `json:"groups"`
}

// ablationVariants are the method labels each kind draws, when present.
var ablationVariants = map[string][]string{"pooled": {"fgrt", "fgrt-fixed"}, "ofat": {"fgrt@ofat", "fgrt-fixed@ofat"}}

// ablationOrder is the order computeAblations reduces records in: by
// group (protocol, dataset, method, configuration), then by repeat, fold
// and unit.
var ablationOrder = results.Order{results.ByProtocol, results.ByDataset, results.ByMethod, results.ByConfigIndex,
	results.ByConfig, results.ByRepeat, results.ByFold, results.ByKey}

// computeAblations groups the rows of the FGRT labels the ablation figures
// draw: the pooled grouping under the paper protocol and the one-factor
// sweep under every protocol. Kinds without rows are left out, and so are
// kinds whose rows cannot be grouped (a configuration without the
// parameters), with a warning: the rest of the analysis stands.
func computeAblations(recs []results.Record, protocols []string) (out []Ablation, warnings []string) {
	// Canonical order, so that sums are reduced in the same order however
	// the records were shuffled.
	recs = append([]results.Record(nil), recs...)
	ablationOrder.Sort(recs)
	add := func(kind, protocol string, group func([]results.Record, string, string) ([]AblationGroup, error)) error {
		ab := Ablation{Kind: kind, Protocol: protocol}
		for _, m := range ablationVariants[kind] {
			g, err := group(recs, m, protocol)
			if err != nil {
				return err
			}
			ab.Groups = append(ab.Groups, g...)
		}
		if len(ab.Groups) > 0 {
			out = append(out, ab)
		}
		return nil
	}
	if err := add("pooled", "paper", PooledAblation); err != nil {
		warnings = append(warnings, "no pooled ablation: "+err.Error())
	}
	for _, p := range protocols {
		if err := add("ofat", p, OFATAblation); err != nil {
			warnings = append(warnings, "no one-factor ablation ("+p+"): "+err.Error())
		}
	}
	return out, warnings
}

// AblationOf returns the ablation of a kind and protocol.
func (a *Analysis) AblationOf(kind, protocol string) (Ablation, bool) {
	for _, ab := range a.Ablations {
		if ab.Kind == kind && ab.Protocol == protocol {
			return ab, true
		}
	}
	return Ablation{}, false
}
