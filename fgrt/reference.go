package fgrt

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// ReferencePartitions returns the fuzzy partitions of feature j that the
// reference settings build on all the rows of X, as the paper protocol
// fits them: FGRT's default quantile partition and FGRT*'s grid-optimised
// one (quirk Q3 included). It fits partitions only, never a tree, so that
// a figure of them needs no training of its own.
func ReferencePartitions(X [][]float64, y []int, s learn.Schema, j int) (plain, optimised fuzzy.Partition, err error) {
	opt := DefaultConfig()
	opt.Optimize, opt.Strategy = true, partopt.Grid
	if plain, err = featurePartition(DefaultConfig(), X, y, s, j); err != nil {
		return fuzzy.Partition{}, fuzzy.Partition{}, err
	}
	if optimised, err = featurePartition(opt, X, y, s, j); err != nil {
		return fuzzy.Partition{}, fuzzy.Partition{}, err
	}
	return plain, optimised, nil
}

// featurePartition is the partition of feature j that a trainer of
// configuration o builds on X.
func featurePartition(o Config, X [][]float64, y []int, s learn.Schema, j int) (fuzzy.Partition, error) {
	tr, err := New(o)
	if err != nil {
		return fuzzy.Partition{}, err
	}
	parts, _, err := tr.Partitions(X, y, s)
	if err != nil {
		return fuzzy.Partition{}, err
	}
	if len(parts) != s.NumFeatures() || j < 0 || j >= len(parts) {
		return fuzzy.Partition{}, fmt.Errorf("fgrt: %d partitions for %d features", len(parts), s.NumFeatures())
	}
	return parts[j], nil
}
