package fga

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// fixedPartitions are the linguistic variables of ex-fuzzy's
// linguistic_variables path (docs/fidelity.md#fga-fixed-partitions): per feature, L trapezoids
// and the domain [lo, hi] of the rows they were built from, to which every
// input is clipped before any membership.
type fixedPartitions struct {
	sets   [][]fuzzy.Trapezoid
	lo, hi []float64
}

// fitFixedPartitions builds the partitions of every column of X. Nominal
// codes are partitioned like numbers, as ex-fuzzy does without a
// categorical mask.
func fitFixedPartitions(X [][]float64, o Config) (*fixedPartitions, error) {
	if len(X) == 0 {
		return nil, errors.New("fga: no rows to build fixed partitions on")
	}
	d := len(X[0])
	fp := &fixedPartitions{sets: make([][]fuzzy.Trapezoid, d), lo: make([]float64, d), hi: make([]float64, d)}
	col := make([]float64, 0, len(X))
	for f := 0; f < d; f++ {
		col = col[:0]
		for i, row := range X {
			if len(row) != d {
				return nil, fmt.Errorf("fga: row %d has %d columns, want %d", i, len(row), d)
			}
			if v := row[f]; !math.IsNaN(v) {
				if math.IsInf(v, 0) {
					return nil, fmt.Errorf("fga: row %d column %d is infinite", i, f)
				}
				col = append(col, v)
			}
		}
		if len(col) == 0 {
			return nil, fmt.Errorf("fga: column %d has no value to build a partition on", f)
		}
		slices.Sort(col)
		fp.lo[f], fp.hi[f] = col[0], col[len(col)-1]
		if o.Style == fuzzy.PaperStyle {
			p, err := fuzzy.NumericPartition(col, fuzzy.PaperStyle)
			if err != nil {
				return nil, fmt.Errorf("fga: column %d: %w", f, err)
			}
			sets, _ := p.Trapezoids()
			fp.sets[f] = sets[:]
			continue
		}
		fp.sets[f] = fuzzy.QuantileTrapezoids(col, o.Labels)
	}
	return fp, nil
}

// Prepare fixes the partitions on X (the paper protocol passes all rows of
// a dataset, as it does for FGRT, so both learners share partitions) and
// returns a trainer that uses them for every fit. With evolved partitions
// there is nothing to prepare and the trainer itself is returned.
func (t *Trainer) Prepare(X [][]float64, _ []int, s learn.Schema) (learn.Trainer, error) {
	if !t.opts.Fixed {
		return t, nil
	}
	if len(X) > 0 && len(X[0]) != s.NumFeatures() {
		return nil, fmt.Errorf("fga: %d columns, schema has %d features", len(X[0]), s.NumFeatures())
	}
	fp, err := fitFixedPartitions(X, t.opts)
	if err != nil {
		return nil, err
	}
	return &Trainer{opts: t.opts, fixed: fp, threads: t.threads}, nil
}

var _ learn.Preparer = (*Trainer)(nil)

// memberships fills p.mem with the membership of every training row (clipped
// to the partition's domain) in every label of every feature, once per fit.
func (p *problem) memberships(fp *fixedPartitions) {
	L := p.lay.labels
	p.mem = make([]float64, p.nFeat*L*p.n)
	clipped := make([]float64, p.n)
	for f := 0; f < p.nFeat; f++ {
		for i, v := range p.cols[f*p.n : (f+1)*p.n] {
			clipped[i] = min(max(v, fp.lo[f]), fp.hi[f])
		}
		for l, t := range fp.sets[f] {
			o := (f*L + l) * p.n
			t.MembershipInto(p.mem[o:o+p.n], clipped)
		}
	}
}

// memColumn returns the memberships of the training rows in label l of
// feature f (fixed partitions).
func (p *problem) memColumn(f, l int) []float64 {
	o := (f*p.lay.labels + l) * p.n
	return p.mem[o : o+p.n]
}
