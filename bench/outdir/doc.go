// Package outdir keeps a study's output directory: it checks that a
// directory holds results of the same study before a run writes to it
// (CheckDir), takes the directory's run lock, grows results.csv by whole
// units only (Appender), moves an old directory aside, and merges the
// directories of a study's shards into one (Merge). The files' formats are
// results.csv (package results) and manifest.json (package manifest).
package outdir
