package runner

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// Validate checks everything about a study that can be known before the
// first unit runs, so that a bad study or a bad data file is one error
// before anything is written rather than a run whose units all fail:
//
//   - the study itself: protocols, options, methods, parameters, grids and
//     sweeps (see UnitsOf);
//   - every dataset of the study, in every shard (a shard must not succeed
//     on a study another shard rejects): it loads, it has no missing cell
//     under missing-value policy error, and the rows the protocols use
//     (the complete rows; every row under impute) satisfy checkClasses
//     for the protocol's folds;
//   - every (protocol, dataset) plan builds — including, under the clean
//     protocol, the inner folds of every training fold — and holds finite
//     numbers only, so that neither NaN nor ±Inf ever reaches a learner.
//
// The plans are kept for the run, so Run after Validate builds none twice.
// Run calls Validate itself before it creates the output directory.
func (r *Runner) Validate(ctx context.Context, s study.Study) error {
	_, err := r.validate(ctx, s)
	return err
}

// validate is Validate, returning the study's resolved methods for Run
// (resolving builds every configuration and hashes external adapters:
// once per run is enough).
func (r *Runner) validate(ctx context.Context, s study.Study) ([]study.ResolvedMethod, error) {
	ms, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	plans := r.planCache(s.Options)
	for _, d := range s.Datasets {
		for _, p := range s.Protocols {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			plan, err := plans.get(ctx, p, d)
			if err != nil {
				return nil, err // loaders, checkClasses and plans name the dataset
			}
			t0 := time.Now()
			err = checkFinite(plan)
			r.stages.since(StagePrepare, t0)
			if err != nil {
				return nil, fmt.Errorf("dataset %s: %w", d, err)
			}
		}
	}
	checksums, _, err := plans.describe(ctx, s.Datasets, s.Protocols)
	if err != nil {
		return nil, err
	}
	if err := sameDataOnce(s.Datasets, checksums); err != nil {
		return nil, err
	}
	return ms, nil
}

// sameDataOnce refuses one dataset listed under two names (a/d.csv,
// ./a/d.csv and its absolute path; a copy of a file; a registry name and
// its mirror file, a copy with a byte-order mark or CRLF line ends):
// datasets are identified by their parsed table (datasets.Identity), and a
// dataset counted twice would be two rows of every table and two
// blocks of every statistic (Friedman N).
func sameDataOnce(names []string, checksums map[string]string) error {
	seen := map[string]string{}
	for _, n := range names {
		sum := checksums[n]
		if first, dup := seen[sum]; dup && sum != "" {
			return fmt.Errorf("datasets %s and %s hold the same table of data (identity %.20s…); list each dataset once", first, n, sum)
		}
		seen[sum] = n
	}
	return nil
}

// planCache returns the runner's plan cache for the given options, making a
// new one when the options changed since the last call.
func (r *Runner) planCache(o protocol.Options) *planCache {
	if r.plans == nil || r.plans.opts != o {
		r.plans = &planCache{load: r.Load, opts: o, stages: &r.stages}
	}
	return r.plans
}

// checkClasses refuses a dataset that stratified k-fold cross-validation
// with k folds cannot evaluate honestly. It looks at the complete rows
// (rows with a missing input are dropped by every protocol under the
// default missing-value policy; all rows when all is set, as policy impute
// keeps the incomplete rows) and requires
//
//   - at least two classes (one class is nothing to classify);
//   - at least two rows in every class present: with a single row, the fold
//     that tests it trains on no example of its class;
//   - at least k rows in the largest class, or no stratified k-fold exists
//     (scikit-learn's StratifiedKFold raises the same error).
//
// A class with fewer than k rows (but at least two) is accepted, as
// scikit-learn accepts it with a warning: some test folds then lack that
// class. The paper's zoo (a class of 4 rows, 5 folds) is such a case.
func checkClasses(d *datasets.Dataset, k int, all bool) error {
	full, complete := d, " "
	if !all {
		full, _ = d.CompleteRows()
		complete = " complete "
	}
	if len(full.Y) == 0 {
		if d.Rows() == 0 {
			return fmt.Errorf("%s has no data rows", d.Name)
		}
		return fmt.Errorf("%s: every one of its %d rows has a missing input, and every protocol uses complete rows only (missing-value policy drop; impute keeps them under the clean and holdout protocols)", d.Name, d.Rows())
	}
	counts := make([]int, len(d.Classes))
	for _, y := range full.Y {
		counts[y]++
	}
	var present []string
	largest := 0
	for c, n := range counts {
		if n == 0 {
			continue
		}
		present = append(present, fmt.Sprintf("%s: %d", d.Classes[c], n))
		largest = max(largest, n)
	}
	sizes := strings.Join(present, ", ")
	switch {
	case len(present) < 2:
		return fmt.Errorf("%s has a single class among its %d%srows (%s); classification needs at least two", d.Name, len(full.Y), complete, sizes)
	case largest < k:
		return fmt.Errorf("%s: %d-fold stratified cross-validation needs a class with at least %d%srows; the largest has %d (%s)", d.Name, k, k, complete, largest, sizes)
	}
	for c, n := range counts {
		if n == 1 {
			return fmt.Errorf("%s: class %q has a single%srow; every class needs at least 2, or the fold that tests it never trains on its class (rows per class: %s)", d.Name, d.Classes[c], complete, sizes)
		}
	}
	return nil
}

// checkFinite reports a plan whose fold matrices hold a NaN or an infinity.
// Readers turn missing cells into NaN and refuse infinities, protocols drop
// incomplete rows, so this only fires when scaling overflows (values near
// the float64 limit); it makes sure such numbers never reach a learner.
func checkFinite(p *protocol.Plan) error {
	bad := func(X [][]float64) (int, int, bool) {
		for i, row := range X {
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	if i, j, ok := bad(p.PrepareX); ok {
		return fmt.Errorf("%s protocol: preprocessed row %d, feature %d is %v (values too large to scale?)", p.Protocol, i, j, p.PrepareX[i][j])
	}
	for _, f := range p.Folds {
		if f.ProvablyFinite() {
			continue
		}
		var err error
		f.EachRow(func(test bool, i int, row []float64) bool {
			for j, v := range row {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					continue
				}
				part := "training"
				if test {
					part = "test"
				}
				err = fmt.Errorf("%s protocol: fold %d of repeat %d, %s row %d, feature %d is %v after preprocessing (values too large to scale?)",
					p.Protocol, f.Index, f.Repeat, part, i, j, v)
				return false
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}
