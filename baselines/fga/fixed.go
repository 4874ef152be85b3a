package fga

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/fgrt/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
)

// fixedPartitions are the linguistic variables of ex-fuzzy's
// linguistic_variables path (baselines.md 2.10): per feature, L trapezoids
// and the domain [lo, hi] of the rows they were built from, to which every
// input is clipped before any membership.
type fixedPartitions struct {
	sets   [][]fuzzy.Trapezoid
	lo, hi []float64
}

// fitFixedPartitions builds the partitions of every column of X. Nominal
// codes are partitioned like numbers, as ex-fuzzy does without a
// categorical mask.
func fitFixedPartitions(X [][]float64, o Options) (*fixedPartitions, error) {
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
		fp.sets[f] = QuantilePartition(col, o.Labels)
	}
	return fp, nil
}

// QuantilePartition is ex-fuzzy's t1_n_partition_parameters for one sorted
// column (no NaN): the numpy percentiles at linspace(0, 100, 2L) points
// q_0..q_{2L-1}; the first label is (q_0-ε, q_0-ε, q_1, q_2), label k of
// the middle ones (q_{2k-1}, q_{2k}, q_{2k+1}, q_{2k+2}), the last
// (q_{2L-3}, q_{2L-2}, q_{2L-1}+ε, q_{2L-1}+ε), with ε = fuzzy.Eps. For three
// labels that is the 0/20/40/60/80/100 partition FGRT uses
// (fuzzy.QuantileStyle).
func QuantilePartition(sorted []float64, labels int) []fuzzy.Trapezoid {
	nq := 4 + (labels-2)*2
	q := make([]float64, nq)
	step := 100.0 / float64(nq-1) // np.linspace: i*step, the last point exactly 100
	for i := range q {
		p := float64(i) * step
		if i == nq-1 {
			p = 100
		}
		q[i] = fuzzy.Percentile(sorted, p)
	}
	sets := make([]fuzzy.Trapezoid, labels)
	for k := range sets {
		switch {
		case k == 0:
			sets[k] = fuzzy.Trapezoid{A: q[0] - fuzzy.Eps, B: q[0] - fuzzy.Eps, C: q[1], D: q[2]}
		case k == labels-1:
			sets[k] = fuzzy.Trapezoid{A: q[nq-3], B: q[nq-2], C: q[nq-1] + fuzzy.Eps, D: q[nq-1] + fuzzy.Eps}
		default:
			o := 1 + 2*(k-1)
			sets[k] = fuzzy.Trapezoid{A: q[o], B: q[o+1], C: q[o+2], D: q[o+3]}
		}
	}
	return sets
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
	return &Trainer{opts: t.opts, fixed: fp}, nil
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
