package rules

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// A Query names the stored rules of one dataset and method label of a
// results directory, on one fold (Fold -1: the representative fold).
type Query struct {
	Dir, Dataset, Method, Protocol string
	Repeat, Fold                   int
}

// Footer is the line after a stored model's rules: how many, the units
// of their thresholds and the statistics every line shows, claiming only
// what the lines show ("17 rules and a default rule; numeric thresholds
// in ...; coverage and confidence on the fold's training rows").
func (s *Stored) Footer() string {
	out := fmt.Sprintf("%d rules", len(s.Rules))
	if s.Default != "" {
		out += " and a default rule (the class a row no rule covers gets)"
	}
	if s.RuleUnits != "" {
		out += "; numeric thresholds in " + s.RuleUnits
	}
	switch {
	case s.Stats == "":
	case len(s.Model.Partitions) > 0:
		// fuzzy rules: a row is covered to the degree of its membership
		out += "; " + s.Stats + " on the fold's training rows (coverage: the rule's membership summed over them, divided by their number"
		if s.Stats != "coverage" {
			out += "; confidence: the share of that sum that rows of the rule's class hold"
		}
		out += ")"
	default:
		out += "; " + s.Stats + " on the fold's training rows (coverage: the share of them the rule covers; confidence: the share of those of its class)"
	}
	return out
}

// Stored are the rules a study stored for one fold.
type Stored struct {
	Query Query
	Row   results.Record
	Model artifacts.ModelRecord
	// Representative says Row is the representative fold, the median of
	// Folds selected rows.
	Representative bool
	Folds          int
	// Rules are the model's readable rules, and RuleUnits the units of
	// their numeric thresholds ("" when they compare none).
	Rules     []string
	RuleUnits string
	// Default is the default rule of the readable rules ("" for a
	// learner without one), Stats what every rule line shows of the
	// training rows (learn.StatsShown: "coverage and confidence",
	// "coverage" or "").
	Default, Stats string
}

// ReadStored reads the rules q names from the artifacts of q.Dir,
// re-derived against its results.csv first.
func ReadStored(q Query) (*Stored, error) {
	recs, err := results.ReadFile(filepath.Join(q.Dir, results.FileName))
	if err != nil {
		return nil, err
	}
	if err := outdir.CheckStudyRows(q.Dir, recs); err != nil {
		return nil, err
	}
	_, models, present, err := artifacts.Read(q.Dir, recs)
	if err != nil {
		return nil, err
	}
	if !present {
		return nil, fmt.Errorf("%s has no %s (run with --no-artifacts): its rules were not kept; fit them again with 'fgrtbench rules --dataset %s'", q.Dir, artifacts.ModelsFile, q.Dataset)
	}
	rows, err := q.rows(recs)
	if err != nil {
		return nil, err
	}
	s := &Stored{Query: q, Representative: q.Fold < 0}
	if s.Row, err = q.pick(rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.Selected {
			s.Folds++
		}
	}
	model, ok := models.ModelOf(s.Row)
	if !ok {
		return nil, fmt.Errorf("%s: no model of %s config %d", q.Dir, s.Row.Key, s.Row.ConfigIndex)
	}
	if model.Rules == nil {
		return nil, fmt.Errorf("%s does not describe its models as rules (%s config %d records none)", q.Method, s.Row.Key, s.Row.ConfigIndex)
	}
	s.Model = model
	s.Rules, s.RuleUnits = readable(model)
	s.Stats = learn.StatsShown(s.Rules)
	if s.RuleUnits != "" && !strings.HasPrefix(s.RuleUnits, "the units the learner saw") {
		s.Default = model.ReadableDefault
	}
	return s, nil
}

// readable are a model's rules with the units of their thresholds: the
// data's own (4 significant digits; models.jsonl.gz keeps them at full
// precision in the units the learner saw), or the learner's for a study
// stored before readable rules were recorded; "" for rules that compare
// no numeric threshold.
func readable(m artifacts.ModelRecord) ([]string, string) {
	rules, learnerUnits := m.Readable()
	switch {
	case learnerUnits:
		return rules, "the units the learner saw: the protocol's scaled units, if it scales (this study predates readable rules)"
	case m.ReadableRules != nil:
		return rules, "the data's own units, to 4 significant digits (full precision in " + artifacts.ModelsFile + ")"
	}
	return rules, ""
}

// rows are the rows of q's dataset, method and protocol; none is an error
// that names what the directory holds instead.
func (q Query) rows(recs []results.Record) ([]results.Record, error) {
	var rows []results.Record
	protocols, datasets, labels := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		datasets[r.Dataset] = true
		if r.Dataset != q.Dataset {
			continue
		}
		labels[r.Method] = true
		if r.Method != q.Method {
			continue
		}
		protocols[r.Protocol] = true
		if q.Protocol == "" || r.Protocol == q.Protocol {
			rows = append(rows, r)
		}
	}
	switch {
	case !datasets[q.Dataset]:
		return nil, fmt.Errorf("%s holds no results of dataset %q (it has %s)", q.Dir, q.Dataset, keysOf(datasets))
	case !labels[q.Method]:
		return nil, fmt.Errorf("%s holds no results of method %q on %s (it has %s)", q.Dir, q.Method, q.Dataset, keysOf(labels))
	case q.Protocol == "" && len(protocols) > 1:
		return nil, fmt.Errorf("%s holds %s under several protocols (%s): give --protocol", q.Dir, q.Method, keysOf(protocols))
	case len(rows) == 0:
		return nil, fmt.Errorf("%s holds no results of %s on %s under protocol %q (it has %s)", q.Dir, q.Method, q.Dataset, q.Protocol, keysOf(protocols))
	}
	return rows, nil
}

// pick is the selected row of q's fold, or the representative one.
func (q Query) pick(rows []results.Record) (results.Record, error) {
	if q.Fold < 0 {
		row, _ := results.Representative(rows)
		return row, nil
	}
	var row results.Record
	found := false
	for _, r := range rows {
		if r.Selected && r.Repeat == q.Repeat && r.Fold == q.Fold {
			row, found = r, true
		}
	}
	if !found {
		return row, fmt.Errorf("%s holds no fold %d of repeat %d of %s on %s", q.Dir, q.Fold, q.Repeat, q.Method, q.Dataset)
	}
	return row, nil
}

// keysOf lists a set, sorted.
func keysOf(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}
