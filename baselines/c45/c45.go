// Package c45 is C4.5 release 8 as Weka's J48 (3.6) implements it: gain
// ratio restricted to splits with at least average information gain,
// numeric thresholds with the MDL correction and snapping to a training
// value, multiway splits on nominal attributes, fractional instances for
// missing values, collapsing, and pessimistic-error pruning with subtree
// raising. The comments name the J48 routine each step mirrors; the
// summary in docs/fidelity.md#c45 is the written spec. Given a CPU budget
// (WithThreads), a fit grows large subtrees and evaluates the attributes
// of large nodes on the budget's free threads (threads.go); the tree is
// the serial one, bit for bit.
//
// Usage:
//
//	tr, err := c45.New(c45.DefaultConfig())
//	model, err := tr.Fit(X, y, schema) // X row-major, NaN = missing
//	pred := model.Predict(Xtest)
package c45

import (
	"errors"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Config holds J48's options.
type Config struct {
	// Confidence is the pruning confidence factor (J48 -C), in (0, 0.5].
	Confidence float64 `param:"confidence"`
	// MinObj is the minimum number of instances per leaf (J48 -M), >= 1.
	MinObj int `param:"min_obj"`
	// Unpruned skips pessimistic pruning (J48 -U). Collapsing still runs,
	// as in Weka 3.6.
	Unpruned bool `param:"unpruned"`
	// SubtreeRaising lets pruning replace a node by its largest branch
	// (on by default; J48 -S turns it off).
	SubtreeRaising bool `param:"subtree_raising"`
	// Collapse removes subtrees that do not reduce training error
	// (always on in Weka 3.6; kept switchable for experiments).
	Collapse bool `param:"collapse"`
}

// DefaultConfig returns J48's defaults: -C 0.25 -M 2, pruned, subtree
// raising and collapsing on.
func DefaultConfig() Config { return settings.Defaults() }

// Validate reports an invalid configuration: a value outside the bounds
// Spec's parameters declare, or a confidence of 0 (the interval is open
// there, which a Param cannot say).
func (c Config) Validate() error {
	if !(c.Confidence > 0) {
		return fmt.Errorf("c45: confidence %v outside (0, 0.5]", c.Confidence)
	}
	return settings.CheckBounds(c)
}

// Trainer fits J48 trees. It keeps no state between Fit calls.
type Trainer struct {
	cfg Config
	// threads is the CPU budget a fit's large nodes spread over (nil:
	// serial; see WithThreads). It is not a setting: every budget grows
	// the same tree.
	threads *par.Budget
}

// New validates cfg and returns a Trainer.
func New(cfg Config) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{cfg: cfg}, nil
}

// Fit grows, collapses and prunes a tree on (X, y). Nominal columns (per
// the schema) hold integer codes; the number of branches of a nominal split
// is len(Categories), or the largest training code + 1 without categories.
// NaN marks a missing value in any column.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	return t.FitTree(X, y, s)
}

// FitTree is Fit with the concrete model type.
func (t *Trainer) FitTree(X [][]float64, y []int, s learn.Schema) (*Model, error) {
	if err := t.cfg.Validate(); err != nil {
		return nil, err
	}
	if err := learn.CheckXY(X, y, s, true); err != nil {
		return nil, err
	}
	b, err := newBuilder(t.cfg, X, y, s)
	if err != nil {
		return nil, err
	}
	b.useThreads(t.threads)
	ids := make([]int32, b.n)
	w := make([]float64, b.n)
	for i := range ids {
		ids[i] = int32(i)
		w[i] = 1
	}
	root := b.grow(ids, w, b.rootRows())
	p := pruner{b: b, cf: t.cfg.Confidence, raise: t.cfg.SubtreeRaising}
	if t.cfg.Collapse {
		collapse(root)
	}
	if !t.cfg.Unpruned {
		p.prune(root)
	}
	releaseTrainingData(root)
	return &Model{root: root, nClasses: b.nc}, nil
}

// builder holds one Fit's data in column-major form, read by every node,
// and the per-row buffers nodes fill for their own rows (the nodes grown
// at the same time never share a row). Each node's other working memory
// is a scratch from scratches.
type builder struct {
	cfg       Config
	minObj    float64
	n, d, nc  int
	cols      []float64 // column j at cols[j*n : (j+1)*n]
	y         []int32
	nominal   []bool
	numValues []int
	// manyValues marks nominal attributes with >= 0.3*N values, which J48
	// leaves out of the average gain unless every attribute is such.
	manyValues    []bool
	allManyValues bool
	// slot[j] is numeric column j's index in the presorted row lists (see
	// sortedRows); -1 for nominal columns.
	slot   []int
	numNum int
	lt     lnTable

	rowW    []float64 // row -> weight in the node being evaluated
	childOf []int32   // row -> child during an in-place partition

	// threads is the fit's CPU budget (nil: serial); scratches hands each
	// node, and each column task of a spread search, its scratch.
	threads   *par.Budget
	scratches *par.Pool[*scratch]
}

// sortedRows holds, for every numeric column, a node's rows ordered by
// that column's value with missing values last: column slot s's list is
// store[s*stride+lo : s*stride+lo+n]. Children of a split that sends every
// row to at most one branch reuse the parent's store (partitioned stably in
// place), so no node ever sorts.
type sortedRows struct {
	store         []int32
	stride, lo, n int
}

func (r sortedRows) list(slot int) []int32 {
	o := slot*r.stride + r.lo
	return r.store[o : o+r.n]
}

type candidate struct {
	valid     bool
	infoGain  float64
	gainRatio float64
	threshold float64
}

var errInfinite = errors.New("c45: infinite value")

func newBuilder(cfg Config, X [][]float64, y []int, s learn.Schema) (*builder, error) {
	n, d, nc := len(X), s.NumFeatures(), s.NumClasses()
	b := &builder{
		cfg: cfg, minObj: float64(cfg.MinObj), n: n, d: d, nc: nc,
		cols:       make([]float64, n*d),
		y:          make([]int32, n),
		nominal:    s.NominalMask(),
		numValues:  make([]int, d),
		manyValues: make([]bool, d),
		slot:       make([]int, d),
		lt:         newLnTable(n),
		rowW:       make([]float64, n),
		childOf:    make([]int32, n),
	}
	b.useThreads(nil)
	for i, row := range X {
		b.y[i] = int32(y[i])
		for j, v := range row {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w in row %d column %d (%s)", errInfinite, i, j, s.FeatureName(j))
			}
			b.cols[j*n+i] = v
		}
	}
	b.allManyValues = true
	for j := 0; j < d; j++ {
		b.slot[j] = -1
		if !b.nominal[j] {
			b.allManyValues = false
			b.slot[j] = b.numNum
			b.numNum++
			continue
		}
		nv, err := nominalValues(b.cols[j*n:(j+1)*n], s.Features[j], s.FeatureName(j))
		if err != nil {
			return nil, err
		}
		b.numValues[j] = nv
		if sm(float64(nv), 0.3*float64(n)) {
			b.allManyValues = false
		} else {
			b.manyValues[j] = true
		}
	}
	return b, nil
}

// rootRows presorts every numeric column once for the whole training set,
// the columns on the budget's free threads when the data is large.
func (b *builder) rootRows() sortedRows {
	r := sortedRows{store: make([]int32, b.numNum*b.n), stride: b.n, n: b.n}
	numeric := make([]int, 0, b.numNum)
	for j := 0; j < b.d; j++ {
		if b.slot[j] >= 0 {
			numeric = append(numeric, j)
		}
	}
	type buffers struct {
		keys []uint64
		idx  []int32
	}
	bufs := par.NewPool(func() *buffers {
		return &buffers{keys: make([]uint64, 2*b.n), idx: make([]int32, b.n)}
	})
	b.forColumns(b.n, len(numeric), func(k int) {
		j, buf := numeric[k], bufs.Get()
		sortByValue(r.list(b.slot[j]), b.cols[j*b.n:(j+1)*b.n], buf.keys[:b.n], buf.keys[b.n:], buf.idx)
		bufs.Put(buf)
	})
	return r
}

// nominalValues validates a nominal column's codes and returns its number
// of branches.
func nominalValues(col []float64, f learn.Feature, name string) (int, error) {
	maxCode := -1
	for i, v := range col {
		if math.IsNaN(v) {
			continue
		}
		if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
			return 0, fmt.Errorf("c45: nominal column %s row %d has code %v, want a non-negative integer", name, i, v)
		}
		if int(v) > maxCode {
			maxCode = int(v)
		}
	}
	if len(f.Categories) > 0 {
		if maxCode >= len(f.Categories) {
			return 0, fmt.Errorf("c45: nominal column %s has code %d but only %d categories", name, maxCode, len(f.Categories))
		}
		return len(f.Categories), nil
	}
	if maxCode < 0 {
		return 1, nil
	}
	return maxCode + 1, nil
}

// Config returns the trainer's configuration.
func (t *Trainer) Config() Config { return t.cfg }
