package reporting

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/fgrtbench/fgrtbench/reports"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// artifactsFact is the report's run-facts row on the artifacts: kept, or
// off (never silently absent).
func artifactsFact(present bool, p artifacts.Predictions, m artifacts.Models) reports.Fact {
	if !present {
		return reports.Fact{Key: "artifacts", Value: "off: no " + artifacts.PredictionsFile + " or " + artifacts.ModelsFile +
			" (run with --no-artifacts): no confusion matrices, AUC, log-loss or stored rules"}
	}
	return reports.Fact{Key: "artifacts", Value: fmt.Sprintf("kept: %s (%d test-row predictions) and %s (%d models), re-derived and equal to results.csv",
		artifacts.PredictionsFile, len(p.Rows), artifacts.ModelsFile, len(m.Records))}
}

// CheckInputs re-derives the artifacts of each input (a results directory,
// or a results.csv with its artifacts beside it) and refuses the first
// whose artifacts disagree with its own rows: merge checks its shards so
// before anything is merged.
func CheckInputs(inputs []string) error {
	for _, in := range inputs {
		dir, file := in, filepath.Join(in, results.FileName)
		if st, err := os.Stat(in); err == nil && !st.IsDir() {
			dir, file = filepath.Dir(in), in
		}
		recs, err := results.ReadFile(file)
		if err != nil {
			return err
		}
		if _, _, _, err := artifacts.Read(dir, recs); err != nil {
			return err
		}
	}
	return nil
}

// A report of a large study decodes its artifacts whole: on 10^6 rows the
// predictions and CART's deep trees take several hundred MB of rows and
// models, and at Go's default GOGC of 100 the heap grew to twice that,
// which made the report, not the study, the peak memory of reproduce
// (1.5 GB on the large-data study, docs/large-data.md). Collecting at 25 %
// growth cuts that peak by a third for a few seconds of collection (the
// rows hold strings and slices, which the collector scans, so 10 % costs
// twice as much again for 0.1 GB more). Smaller artifacts keep the
// default: a full reproduction's 24 MB decode to about 260 MB, which its
// report frees as soon as it has analysed them, and 25 % there cost 1 s of
// CPU (a fifth of the report) for no lower peak.
const (
	largeArtifacts     = 32 << 20 // compressed bytes of predictions and models
	artifactsGCPercent = 25
)

// artifactsGC sets the collector's target to artifactsGCPercent while a
// report reads and analyses dir's artifacts when they are large, unless
// the user chose one (GOGC), and returns the function that restores it.
func artifactsGC(dir string) func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	var size int64
	for _, name := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
		if st, err := os.Lstat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
			size += st.Size()
		}
	}
	if size < largeArtifacts {
		return func() {}
	}
	old := debug.SetGCPercent(artifactsGCPercent)
	return func() { debug.SetGCPercent(old) }
}
