package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/command"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
	"github.com/fgrtbench/fgrtbench/tasks/rules"
)

// rulesJSON is rules --json: every feature, term and class by name.
type rulesJSON = rules.Document

func writeRulesJSON(env *command.Env, r rulesJSON) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false) // rules stay readable: "<=", not "\u003c="
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// printStoredRules prints the rules a results directory stored for one
// dataset and method, re-derived against results.csv first.
func printStoredRules(env *command.Env, q rules.Query, asJSON bool) error {
	s, err := rules.ReadStored(q)
	if err != nil {
		return err
	}
	if asJSON {
		return writeRulesJSON(env, s.Document())
	}
	doc, row := s.Document(), s.Row
	which, config, w := "", row.Config, env.Stdout
	if s.Representative {
		which = fmt.Sprintf(", the representative fold (its accuracy is the median of %d folds)", s.Folds)
	}
	if config == "" {
		config = "(none)"
	}
	fmt.Fprintf(w, "%s on %s, %s protocol, repeat %d fold %d%s\nconfig %s; test accuracy %.4f (%d of %d); stored in %s\n%s\n\n",
		q.Method, q.Dataset, row.Protocol, row.Repeat, row.Fold, which, config, row.Accuracy, row.Correct, row.NTest,
		artifacts.ModelsFile, strings.Repeat("=", 60))
	for _, r := range s.Rules {
		fmt.Fprintln(w, r)
	}
	if s.Default != "" {
		fmt.Fprintln(w, s.Default)
	}
	fmt.Fprintf(w, "\n%s\n", s.Footer())
	if len(s.Model.Partitions) > 0 {
		fmt.Fprintf(w, "\nPartitions its rules use, in %s\n%s\n%s\n", doc.Units, strings.Repeat("=", 60), artifacts.FormatPartitions(doc.Partitions))
	}
	return nil
}
