package rules

import "github.com/fgrtbench/fgrtbench/results/artifacts"

// Document is the rules of one model as 'fgrtbench rules --json' prints
// them: every feature, term and class by name.
type Document struct {
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
	Units     string   `json:"partition_units"`
	RuleUnits string   `json:"rule_units,omitempty"`
	Classes   []string `json:"classes"`
	Rules     []string `json:"rules"`
	// DefaultRule is the class a row no rule covers gets, as the readable
	// rules print it (RIPPER); absent for learners without one.
	DefaultRule string                `json:"default_rule,omitempty"`
	Partitions  []artifacts.NamedTerm `json:"partitions"`
}

// storedUnits are the units of a stored model's partitions: the data's
// own, as the models record them.
const storedUnits = "the data's own units"

// Document is the fitted model's rules by name.
func (f *Fitted) Document() Document {
	return Document{Source: "fitted", Dataset: f.Dataset, Method: f.Method, Config: f.Config, Units: f.Units,
		TrainingAccuracy: &f.Accuracy, Classes: f.Record.Classes, Rules: f.Record.Rules, Partitions: partitions(f.Record)}
}

// Document is the stored model's rules by name.
func (s *Stored) Document() Document {
	row := s.Row
	return Document{Source: "stored", Dataset: s.Query.Dataset, Method: s.Query.Method, Protocol: row.Protocol,
		Key: row.Key, Repeat: &row.Repeat, Fold: &row.Fold, Representative: s.Representative, Config: row.Config,
		Accuracy: &row.Accuracy, Units: storedUnits, RuleUnits: s.RuleUnits, Classes: s.Model.Classes, Rules: s.Rules,
		DefaultRule: s.Default, Partitions: partitions(s.Model)}
}

// partitions are a model's partitions by name, an empty list (not null)
// when it uses none.
func partitions(m artifacts.ModelRecord) []artifacts.NamedTerm {
	if p := m.NamedPartitions(); p != nil {
		return p
	}
	return []artifacts.NamedTerm{}
}
