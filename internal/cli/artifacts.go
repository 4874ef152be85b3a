package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/runner"
	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
)

// storedArtifacts are a results directory's predictions and models, read
// and re-derived against its results.csv (present false: a directory run
// with --no-artifacts, or older than the artifacts).
type storedArtifacts struct {
	present     bool
	predictions results.Predictions
	models      results.Models
}

// readArtifacts reads dir's artifacts and refuses them when any count they
// re-derive (n_test, correct, rules) disagrees with the rows of recs.
func readArtifacts(dir string, recs []results.Record) (storedArtifacts, error) {
	p, m, present, err := results.ReadArtifacts(dir, recs)
	if err != nil {
		return storedArtifacts{}, err
	}
	return storedArtifacts{present: present, predictions: p, models: m}, nil
}

// fact is the report's run-facts row on the artifacts: kept, or off (never
// silently absent).
func (a storedArtifacts) fact() reports.Fact {
	if !a.present {
		return reports.Fact{Key: "artifacts", Value: "off: no " + results.PredictionsFile + " or " + results.ModelsFile +
			" (run with --no-artifacts): no confusion matrices, AUC, log-loss or stored rules"}
	}
	return reports.Fact{Key: "artifacts", Value: fmt.Sprintf("kept: %s (%d test-row predictions) and %s (%d models), re-derived and equal to results.csv",
		results.PredictionsFile, len(a.predictions.Rows), results.ModelsFile, len(a.models.Records))}
}

// checkInputArtifacts re-derives the artifacts of each merge input (a
// directory, or a results.csv with its artifacts beside it) before
// anything is merged.
func checkInputArtifacts(inputs []string) error {
	for _, in := range inputs {
		dir, file := in, filepath.Join(in, runner.ResultsFile)
		if st, err := os.Stat(in); err == nil && !st.IsDir() {
			dir, file = filepath.Dir(in), in
		}
		recs, err := results.ReadFile(file)
		if err != nil {
			return err
		}
		if _, err := readArtifacts(dir, recs); err != nil {
			return err
		}
	}
	return nil
}
