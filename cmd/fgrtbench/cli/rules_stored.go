package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/tasks/rules"
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

// printStoredRules prints the rules a results directory stored for one
// dataset and method, re-derived against results.csv first.
func printStoredRules(env *Env, q rules.Query, asJSON bool) error {
	s, err := rules.ReadStored(q)
	if err != nil {
		return err
	}
	row, units := s.Row, "the data's own units"
	if asJSON {
		return writeRulesJSON(env, rulesJSON{Source: "stored", Dataset: q.Dataset, Method: q.Method, Protocol: row.Protocol,
			Key: row.Key, Repeat: &row.Repeat, Fold: &row.Fold, Representative: s.Representative, Config: row.Config, Accuracy: &row.Accuracy,
			Units: units, RuleUnits: s.RuleUnits, Classes: s.Model.Classes, Rules: s.Rules, Partitions: s.Model.NamedPartitions()})
	}
	which, config, w := "", row.Config, env.Stdout
	if s.Representative {
		which = fmt.Sprintf(", the representative fold (its accuracy is the median of %d folds)", s.Folds)
	}
	if config == "" {
		config = "(none)"
	}
	fmt.Fprintf(w, "%s on %s, %s protocol, repeat %d fold %d%s\nconfig %s; test accuracy %.4f (%d of %d); stored in %s\n%s\n\n",
		q.Method, q.Dataset, row.Protocol, row.Repeat, row.Fold, which, config, row.Accuracy, row.Correct, row.NTest,
		results.ModelsFile, strings.Repeat("=", 60))
	for _, r := range s.Rules {
		fmt.Fprintln(w, r)
	}
	if s.RuleUnits != "" {
		fmt.Fprintf(w, "\n%d rules; numeric thresholds in %s\n", len(s.Rules), s.RuleUnits)
	} else {
		fmt.Fprintf(w, "\n%d rules\n", len(s.Rules))
	}
	if len(s.Model.Partitions) > 0 {
		fmt.Fprintf(w, "\nPartitions its rules use, in %s\n%s\n%s\n", units, strings.Repeat("=", 60), results.FormatPartitions(s.Model.NamedPartitions()))
	}
	return nil
}
