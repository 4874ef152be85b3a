package runner

import "github.com/fgrtbench/fgrtbench/datasets"

// Helpers that only the tests use: no part of the package's API.

// CheckClasses is checkClasses on the complete rows.
func CheckClasses(d *datasets.Dataset, k int) error { return checkClasses(d, k, false) }
