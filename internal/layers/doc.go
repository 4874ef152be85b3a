// Package layers declares the import layers of fgrtbench and, in its test,
// enforces them: data flows one way (datasets → protocols and runner →
// learners → results.csv → reports, figures and the gate), and imports
// follow it. The table in layers.go says, for every package of the module,
// which layers it may import; TestImportsPointDown checks every import of
// `go list -deps ./...` against it, names each offending import, refuses a
// package the table does not place, and asserts that the views (reports,
// plots, the gate) reach no learner, registry or runner, and that no two
// directories import each other. TestReadmeLayoutMatchesTheTable holds
// README.md's Layout block against the table (CheckLayout): every package
// of the module drawn in its layer, and says which line to add when one
// is missing.
//
// Run it with `go test ./internal/layers`; it skips when the go command is
// not available. A new package needs its place in the table and on its
// layer's line of README.md's Layout.
package layers
