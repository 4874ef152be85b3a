package check

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// PredictionsOutcome is what Predictions found: the rows whose predicted
// label changed, of how many compared, and how many rows of stochastic
// methods it left out.
type PredictionsOutcome struct {
	Diffs             []gate.PredictionDiff
	Compared, Skipped int
}

// errPredictionsChanged fails a comparison that found a changed row.
var errPredictionsChanged = errors.New("predictions changed; see the table above")

// Predictions compares the stored predictions of dir with those of ref,
// both re-derived against their own results.csv first, on the rows of
// deterministic methods (stochastic says which method labels of dir are
// not). The Outcome comes back with the error that a row changed.
func Predictions(dir, ref string, stochastic func(label string) bool) (*PredictionsOutcome, error) {
	cur, recs, err := readPredictions(dir)
	if err != nil {
		return nil, err
	}
	was, _, err := readPredictions(ref)
	if err != nil {
		return nil, err
	}
	label := map[string]string{}
	for _, r := range recs {
		label[r.Key] = r.Method
	}
	deterministic := func(key string) bool { return !stochastic(label[key]) }
	out := &PredictionsOutcome{}
	out.Diffs, out.Compared, out.Skipped = gate.ComparePredictions(was, cur, deterministic)
	if len(out.Diffs) > 0 {
		return out, errPredictionsChanged
	}
	return out, nil
}

// readPredictions reads the rows and predictions of a results directory,
// re-deriving them (and its models) against its results.csv; a directory
// without artifacts has nothing to compare.
func readPredictions(dir string) (artifacts.Predictions, []results.Record, error) {
	recs, err := results.ReadFile(filepath.Join(dir, results.FileName))
	if err != nil {
		return artifacts.Predictions{}, nil, err
	}
	if err := outdir.CheckStudyRows(dir, recs); err != nil {
		return artifacts.Predictions{}, nil, err
	}
	// The models are needed to check the directory against its
	// results.csv, not for the comparison: on large data (deep trees)
	// they are hundreds of MB, dropped here before the next read.
	p, _, present, err := artifacts.Read(dir, recs)
	if err == nil && !present {
		err = fmt.Errorf("%s has no %s (run with --no-artifacts): nothing to compare", dir, artifacts.PredictionsFile)
	}
	return p, recs, err
}
