package cli

import "github.com/fgrtbench/fgrtbench/results"

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
