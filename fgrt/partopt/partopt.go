// Package partopt implements FGRT*'s partition optimisation (the authors'
// partition_optimization.py as the experiments call it, docs/fidelity.md#fgrt-star):
// each numeric feature's Low/Medium/High trapezoids are encoded as twelve
// non-negative increments, three of them are searched, and every candidate
// is scored by a class separability index computed with the optimiser's own
// trapezoid. Nominal features are left unchanged.
package partopt

import (
	"errors"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/par"
)

// Strategy selects the search.
type Strategy int

const (
	// Grid is the 216-point grid over {0.05..0.30} x range used for every
	// committed FGRT* result (plus the decoded initial partition: 217
	// evaluations per feature).
	Grid Strategy = iota
	// Coordinate is the coordinate search the paper describes (steps
	// 0.10, 0.05, 0.02 x range, at most 50 iterations).
	Coordinate
	// Hybrid is the library default: a 27-point grid from the initial
	// encoding, then coordinate search with at most 25 iterations.
	Hybrid
)

// UnmarshalText parses a strategy as ParseStrategy does, so that a
// learner's configuration decodes it (learn.Decode).
func (s *Strategy) UnmarshalText(b []byte) error {
	v, err := ParseStrategy(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseStrategy maps "grid", "coordinate" and "hybrid" to a Strategy.
func ParseStrategy(s string) (Strategy, error) {
	switch s {
	case "grid", "":
		return Grid, nil
	case "coordinate":
		return Coordinate, nil
	case "hybrid":
		return Hybrid, nil
	}
	return 0, fmt.Errorf("partopt: unknown strategy %q (grid, coordinate, hybrid)", s)
}

func (s Strategy) String() string {
	return [...]string{"grid", "coordinate", "hybrid"}[s]
}

// Encoding is the interleaved increment vector of a Low/Medium/High
// partition. Corner order (L/M/H = Low/Medium/High, corners a..d):
//
//	pos: 0  1  2  3  4  5  6  7  8  9  10 11
//	     La Lb Lc Ma Ld Mb Mc Ha Md Hb Hc Hd
//
// Entry 0 is always 0 and entry i > 0 is corner[i] - corner[i-1].
type Encoding [12]float64

// positions[term][corner] is the interleaved position of a corner.
var positions = [3][4]int{{0, 1, 2, 4}, {3, 5, 6, 8}, {7, 9, 10, 11}}

// searched are the increments the strategies modify: the Low plateau, the
// Low/Medium overlap and the Medium plateau.
var searched = [3]int{2, 4, 6}

// Encode turns three trapezoids into their increment encoding.
func Encode(sets [3]fuzzy.Trapezoid) Encoding {
	var pts [12]float64
	for t, s := range sets {
		c := [4]float64{s.A, s.B, s.C, s.D}
		for k := 0; k < 4; k++ {
			pts[positions[t][k]] = c[k]
		}
	}
	var e Encoding
	for i := 1; i < 12; i++ {
		e[i] = pts[i] - pts[i-1]
	}
	return e
}

// Decode accumulates the increments and rescales them to [xmin, xmax]:
// corner = acc / max(acc) * (xmax - xmin) + xmin (or acc + xmin when every
// increment is 0). Low's a is therefore always xmin.
func Decode(e Encoding, xmin, xmax float64) [3]fuzzy.Trapezoid {
	var acc [12]float64
	s := 0.0
	amax := math.Inf(-1)
	for i := 0; i < 12; i++ {
		s += e[i]
		acc[i] = s
		if s > amax {
			amax = s
		}
	}
	r := xmax - xmin
	var out [3]fuzzy.Trapezoid
	for t := 0; t < 3; t++ {
		var c [4]float64
		for k := 0; k < 4; k++ {
			p := acc[positions[t][k]]
			if amax > 0 {
				c[k] = float64(float64(p/amax)*r) + xmin
			} else {
				c[k] = p + xmin
			}
		}
		out[t] = fuzzy.Trapezoid{A: c[0], B: c[1], C: c[2], D: c[3]}
	}
	return out
}

// clampIncrements applies the reference's enc[1:] = max(enc[1:], 0).
func (e *Encoding) clampIncrements() {
	for i := 1; i < 12; i++ {
		if e[i] < 0 || e[i] != e[i] {
			// NaN compares false in numpy.maximum too but propagates; NaN
			// cannot arise from finite columns, so treat it as 0.
			e[i] = 0
		}
	}
}

// Membership is the optimiser's trapezoid (not ex-fuzzy's): a rising ramp
// on [a, b) when b > a, 1 on [b, c], a falling ramp on (c, d] when d > c,
// 0 elsewhere. It differs from fuzzy.Trapezoid at vertical shoulders: here
// Low(xmin) = 1, there Low(xmin) = 0 (quirk Q3).
func Membership(x float64, s fuzzy.Trapezoid) float64 {
	a, b, c, d := s.A, s.B, s.C, s.D
	switch {
	case b > a && x >= a && x < b:
		return (x - a) / (b - a)
	case x >= b && x <= c:
		return 1
	case d > c && x > c && x <= d:
		return (d - x) / (d - c)
	}
	return 0
}

// Config configures Optimize.
type Config struct {
	Strategy Strategy
	// ExtendLow moves each optimised Low set's a to xmin - 1e-4 so that the
	// ex-fuzzy trapezoid used by FGRT gives the column minimum membership 1
	// (the fix of quirk Q3). Off reproduces the reference.
	ExtendLow bool
	// IntegerMemberships reproduces the reference on an integer-typed
	// (int64) matrix: its membership array is np.zeros_like(X), so ramp
	// memberships are truncated toward zero when stored and only plateaus
	// count (the reference's dermatology FGRT* results depend on it). Go
	// matrices carry no dtype; the caller decides (fgrt.Trainer does so by
	// checking that every cell is an integer).
	IntegerMemberships bool
	// Threads is the CPU budget the features are optimised on (nil:
	// serially); not a setting: the partitions and the evaluation count
	// are the same for every budget.
	Threads *par.Budget
}

// Result reports one optimised feature.
type Result struct {
	Sets [3]fuzzy.Trapezoid
	// Initial and Score are the separability of the decoded initial and of
	// the chosen partition. (Grid computes Initial exactly only when the
	// initial partition can win; otherwise it is the fast evaluation's
	// value, accurate to about 1e-12 relative.)
	Initial, Score float64
	// Evaluations counts separability evaluations the reference would make
	// (217 for Grid).
	Evaluations int
}

// Optimize returns a copy of parts with every numeric partition optimised
// on its column of X with labels y (which must be 0-based; the reference
// scores classes 0..C-1 where C is the number of distinct labels), and the
// total evaluation count. Nominal partitions are returned unchanged. With
// a budget, features are optimised on its free threads when the columns
// are long (parallelRows), each with a workspace of its thread; the
// results, and the error reported (the first column's), are combined in
// column order, as serially.
func Optimize(X [][]float64, y []int, parts []fuzzy.Partition, opt Config) ([]fuzzy.Partition, int, error) {
	n := len(X)
	if n == 0 {
		return nil, 0, errors.New("partopt: no rows")
	}
	if len(y) != n {
		return nil, 0, fmt.Errorf("partopt: %d rows but %d labels", n, len(y))
	}
	nClasses, err := countClasses(y)
	if err != nil {
		return nil, 0, err
	}
	out := make([]fuzzy.Partition, len(parts))
	evals := make([]int, len(parts))
	errs := make([]error, len(parts))
	spaces := par.NewPool(func() *workspace { return newWorkspace(n, nClasses) })
	body := func(j int) {
		if parts[j].Nominal {
			out[j] = parts[j]
			return
		}
		ws := spaces.Get()
		defer spaces.Put(ws)
		out[j], evals[j], errs[j] = ws.optimizeColumn(X, y, j, parts, opt)
	}
	if opt.Threads == nil || n < parallelRows {
		for j := range parts {
			body(j)
		}
	} else {
		opt.Threads.For(len(parts), body)
	}
	total := 0
	for j := range parts {
		if errs[j] != nil {
			return nil, 0, errs[j]
		}
		total += evals[j]
	}
	return out, total, nil
}

// parallelRows is the number of rows from which Optimize spreads its
// features over the free threads of its budget: one feature's search is
// a sort and a few hundred evaluations over the column, milliseconds
// from a thousand rows on (BenchmarkOptimizeThreads: about 0.8 ms per
// feature at 1,024 rows), long next to a thread's handoff, but every
// thread at work needs a workspace of its own (about (64 + 16 × classes)
// bytes a row), so the threshold stays at the order of magnitude of the
// other loops' rather than at a thousand rows. Not measured finer: the
// machine's load (20 to 30 on 2 cores) kept wall times from deciding;
// re-measure with BenchmarkOptimizeThreads on a quiet machine.
const parallelRows = 2048

// optimizeColumn optimises the numeric partition of column j of X.
func (ws *workspace) optimizeColumn(X [][]float64, y []int, j int, parts []fuzzy.Partition, opt Config) (fuzzy.Partition, int, error) {
	init, err := parts[j].Trapezoids()
	if err != nil {
		return fuzzy.Partition{}, 0, fmt.Errorf("partopt: column %d: %w", j, err)
	}
	col := ws.col
	for i, row := range X {
		if len(row) != len(parts) {
			return fuzzy.Partition{}, 0, fmt.Errorf("partopt: row %d has %d columns, want %d", i, len(row), len(parts))
		}
		v := row[j]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fuzzy.Partition{}, 0, fmt.Errorf("partopt: row %d column %d is not finite", i, j)
		}
		col[i] = v
	}
	ws.truncate = opt.IntegerMemberships
	res := ws.optimizeFeature(col, y, init, opt.Strategy)
	sets := res.Sets
	if opt.ExtendLow {
		sets[0].A = ws.xmin - fuzzy.Eps
	}
	return fuzzy.NumericFromSets(sets, ws.xmin, ws.xmax), res.Evaluations, nil
}

// OptimizeFeature optimises one numeric column (no NaN) from an initial
// partition.
func OptimizeFeature(col []float64, y []int, initial [3]fuzzy.Trapezoid, s Strategy) (Result, error) {
	if len(col) == 0 || len(col) != len(y) {
		return Result{}, fmt.Errorf("partopt: %d values but %d labels", len(col), len(y))
	}
	for i, v := range col {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Result{}, fmt.Errorf("partopt: value %d is not finite", i)
		}
	}
	nc, err := countClasses(y)
	if err != nil {
		return Result{}, err
	}
	ws := newWorkspace(len(col), nc)
	return ws.optimizeFeature(col, y, initial, s), nil
}

// countClasses returns the number of distinct labels (the reference's C).
func countClasses(y []int) (int, error) {
	seen := map[int]bool{}
	for i, k := range y {
		if k < 0 {
			return 0, fmt.Errorf("partopt: label %d of row %d is negative", k, i)
		}
		seen[k] = true
	}
	return len(seen), nil
}

var gridSteps = [6]float64{0.05, 0.10, 0.15, 0.20, 0.25, 0.30}
var hybridSteps = [3]float64{0.10, 0.20, 0.30}
var coordSteps = [3]float64{0.10, 0.05, 0.02}

const maxIterations = 50

func (ws *workspace) optimizeFeature(col []float64, y []int, initial [3]fuzzy.Trapezoid, s Strategy) Result {
	ws.load(col, y)
	r := ws.xmax - ws.xmin
	enc0 := Encode(initial)
	var best Encoding
	var bestS float64
	evals := 0
	if s == Grid {
		var initS float64
		best, bestS, initS, evals = ws.grid(enc0, r)
		return Result{Sets: Decode(best, ws.xmin, ws.xmax), Initial: initS, Score: bestS, Evaluations: evals}
	}
	initS := ws.exact(Decode(enc0, ws.xmin, ws.xmax))
	switch s {
	case Coordinate:
		best, bestS, evals = ws.coordinate(enc0, initS, r, maxIterations)
		evals++
	case Hybrid:
		best, bestS = enc0, initS
		evals = 1
		for _, a := range hybridSteps {
			for _, b := range hybridSteps {
				for _, c := range hybridSteps {
					t := enc0
					t[2], t[4], t[6] = a*r, b*r, c*r
					t.clampIncrements()
					evals++
					if sc := ws.exact(Decode(t, ws.xmin, ws.xmax)); sc > bestS {
						best, bestS = t, sc
					}
				}
			}
		}
		var e int
		best, bestS, e = ws.coordinate(best, bestS, r, maxIterations/2)
		evals += e
	}
	return Result{Sets: Decode(best, ws.xmin, ws.xmax), Initial: initS, Score: bestS, Evaluations: evals}
}

// coordinate is the reference's coordinate search from (start, startS); it
// returns the number of evaluations it made.
func (ws *workspace) coordinate(start Encoding, startS, r float64, maxIter int) (Encoding, float64, int) {
	best, bestS := start, startS
	evals := 0
	for it := 0; it < maxIter; it++ {
		improved := false
		for _, step := range coordSteps {
			for _, idx := range searched {
				for _, dir := range [2]float64{-1, 1} {
					t := best
					t[idx] += float64(float64(dir*step) * r)
					t.clampIncrements()
					evals++
					if sc := ws.exact(Decode(t, ws.xmin, ws.xmax)); sc > bestS {
						best, bestS, improved = t, sc, true
					}
				}
			}
			if improved {
				break
			}
		}
		if !improved {
			break
		}
	}
	return best, bestS, evals
}
