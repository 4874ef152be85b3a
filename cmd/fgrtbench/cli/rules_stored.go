package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/results"
)

// rulesJSON is rules --json: every feature, term and class by name.
type rulesJSON struct {
	Source   string `json:"source"` // "fitted" or "stored"
	Dataset  string `json:"dataset"`
	Method   string `json:"method"`
	Protocol string `json:"protocol,omitempty"`
	Key      string `json:"key,omitempty"`
	Repeat   *int   `json:"repeat,omitempty"`
	Fold     *int   `json:"fold,omitempty"`
	// Representative is true for the fold chosen as the median accuracy.
	Representative   bool     `json:"representative,omitempty"`
	Config           string   `json:"config"`
	Accuracy         *float64 `json:"test_accuracy,omitempty"`
	TrainingAccuracy *float64 `json:"training_accuracy,omitempty"`
	// Units are those of the partitions' corners. RuleUnits are those of
	// the rules' numeric thresholds: the data's own (4 significant
	// digits; models.jsonl.gz keeps them at full precision in the units
	// the learner saw), or the learner's for a study stored before
	// readable rules were recorded. Absent for fitted FGRT, whose rules
	// name terms.
	Units      string              `json:"partition_units"`
	RuleUnits  string              `json:"rule_units,omitempty"`
	Classes    []string            `json:"classes"`
	Rules      []string            `json:"rules"`
	Partitions []results.NamedTerm `json:"partitions"`
}

func writeRulesJSON(env *Env, r rulesJSON) error {
	if r.Partitions == nil {
		r.Partitions = []results.NamedTerm{}
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false) // rules stay readable: "<=", not "\u003c="
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

type storedRulesQuery struct {
	dir, dataset, method, protocol string
	repeat, fold                   int // fold -1: the representative fold
}

// storedRules prints the rules a results directory stored for one dataset
// and method, re-derived against results.csv first.
func storedRules(env *Env, q storedRulesQuery, asJSON bool) error {
	recs, err := results.ReadFile(filepath.Join(q.dir, runner.ResultsFile))
	if err != nil {
		return err
	}
	art, err := readArtifacts(q.dir, recs)
	if err != nil {
		return err
	}
	if !art.present {
		return fmt.Errorf("%s has no %s (run with --no-artifacts): its rules were not kept; fit them again with 'fgrtbench rules --dataset %s'", q.dir, results.ModelsFile, q.dataset)
	}
	var rows []results.Record
	protocols, datasets, labels := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		datasets[r.Dataset] = true
		if r.Dataset != q.dataset {
			continue
		}
		labels[r.Method] = true
		if r.Method != q.method {
			continue
		}
		protocols[r.Protocol] = true
		if q.protocol == "" || r.Protocol == q.protocol {
			rows = append(rows, r)
		}
	}
	switch {
	case !datasets[q.dataset]:
		return fmt.Errorf("%s holds no results of dataset %q (it has %s)", q.dir, q.dataset, keysOf(datasets))
	case !labels[q.method]:
		return fmt.Errorf("%s holds no results of method %q on %s (it has %s)", q.dir, q.method, q.dataset, keysOf(labels))
	case q.protocol == "" && len(protocols) > 1:
		return fmt.Errorf("%s holds %s under several protocols (%s): give --protocol", q.dir, q.method, keysOf(protocols))
	case len(rows) == 0:
		return fmt.Errorf("%s holds no results of %s on %s under protocol %q (it has %s)", q.dir, q.method, q.dataset, q.protocol, keysOf(protocols))
	}
	var row results.Record
	representative := q.fold < 0
	if representative {
		row, _ = results.Representative(rows)
	} else {
		found := false
		for _, r := range rows {
			if r.Selected && r.Repeat == q.repeat && r.Fold == q.fold {
				row, found = r, true
			}
		}
		if !found {
			return fmt.Errorf("%s holds no fold %d of repeat %d of %s on %s", q.dir, q.fold, q.repeat, q.method, q.dataset)
		}
	}
	model, ok := art.models.ModelOf(row)
	if !ok {
		return fmt.Errorf("%s: no model of %s config %d", q.dir, row.Key, row.ConfigIndex)
	}
	if model.Rules == nil {
		return fmt.Errorf("%s does not describe its models as rules (%s config %d records none)", q.method, row.Key, row.ConfigIndex)
	}
	units := "the data's own units"
	rules, learnerUnits := model.Readable()
	ruleUnits := "the data's own units, to 4 significant digits (full precision in " + results.ModelsFile + "); coverage and confidence on the fold's training rows"
	if learnerUnits {
		ruleUnits = "the units the learner saw: the protocol's scaled units, if it scales (this study predates readable rules)"
	}
	if asJSON {
		rep, fold, acc := row.Repeat, row.Fold, row.Accuracy
		return writeRulesJSON(env, rulesJSON{Source: "stored", Dataset: q.dataset, Method: q.method, Protocol: row.Protocol,
			Key: row.Key, Repeat: &rep, Fold: &fold, Representative: representative, Config: row.Config, Accuracy: &acc,
			Units: units, RuleUnits: ruleUnitsJSON(model, ruleUnits), Classes: model.Classes, Rules: rules, Partitions: model.NamedPartitions()})
	}
	which := ""
	if representative {
		which = fmt.Sprintf(", the representative fold (its accuracy is the median of %d folds)", countSelected(rows))
	}
	fmt.Fprintf(env.Stdout, "%s on %s, %s protocol, repeat %d fold %d%s\nconfig %s; test accuracy %.4f (%d of %d); stored in %s\n%s\n\n",
		q.method, q.dataset, row.Protocol, row.Repeat, row.Fold, which, orDefault(row.Config), row.Accuracy, row.Correct, row.NTest,
		results.ModelsFile, strings.Repeat("=", 60))
	for _, r := range rules {
		fmt.Fprintln(env.Stdout, r)
	}
	if model.ReadableRules != nil || learnerUnits {
		fmt.Fprintf(env.Stdout, "\n%d rules; numeric thresholds in %s\n", len(rules), ruleUnits)
	} else {
		fmt.Fprintf(env.Stdout, "\n%d rules\n", len(rules))
	}
	if len(model.Partitions) > 0 {
		fmt.Fprintf(env.Stdout, "\nPartitions its rules use, in %s\n%s\n%s\n", units, strings.Repeat("=", 60), results.FormatPartitions(model.NamedPartitions()))
	}
	return nil
}

// ruleUnitsJSON is rulesJSON.RuleUnits: none for a model whose rules
// compare no numeric thresholds.
func ruleUnitsJSON(m results.ModelRecord, units string) string {
	if _, learnerUnits := m.Readable(); m.ReadableRules == nil && !learnerUnits {
		return ""
	}
	return units
}

func countSelected(rows []results.Record) int {
	n := 0
	for _, r := range rows {
		if r.Selected {
			n++
		}
	}
	return n
}

func orDefault(config string) string {
	if config == "" {
		return "(none)"
	}
	return config
}

func keysOf(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}
