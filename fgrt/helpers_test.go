package fgrt

import "github.com/fgrtbench/fgrtbench/fuzzy"

// Helpers that only the tests use: no part of the package's API.

// FitTree is fitTree with the candidate cache.
func FitTree(X [][]float64, y []int, nClasses int, parts []fuzzy.Partition, opt GrowConfig) (*Model, error) {
	return fitTree(X, y, nClasses, parts, opt, false)
}
