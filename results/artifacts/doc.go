// Package artifacts stores what was learned beside results.csv: the test
// rows' predictions (PredictionsFile) and the fitted models
// (ModelsFile), one gzip member per unit and file.
//
// The runner appends a unit's members in one write each (Store), so that
// a run killed at any moment leaves whole units only; Finish orders the
// units by key, RetainUnits and Merge keep a resumed run and merged shards
// in step with their results.csv, and Read cross-checks the two. The
// record of one row is package results; this package reads those rows
// and never writes them.
package artifacts
