package stats

import "flag"

// update is accepted so that `go test ./reports/... -update` (which
// regenerates the golden files of package reports) also runs here; this
// package has no golden files.
var _ = flag.Bool("update", false, "no golden files in this package")
