// Package cart is a node-for-node port of scikit-learn 1.2.1's
// DecisionTreeClassifier for the configuration the FGRT paper's code runs:
// dense input, unit sample weights, a single output, the "best" splitter and
// the depth-first builder (max_leaf_nodes=None), with the gini or entropy
// criterion, min_samples_split, min_samples_leaf, max_depth, max_features,
// min_impurity_decrease and minimal cost-complexity pruning (ccp_alpha).
//
// Fidelity notes (see docs/fidelity.md#cart):
//   - X is rounded to float32 before fitting and predicting, as sklearn does;
//     thresholds are float64 midpoints of two float32 values.
//   - Features are visited in sklearn's random order: the splitter's xorshift
//     (our_rand_r) is seeded by numpy's RandomState(random_state).randint(0,
//     RAND_R_MAX), and the feature permutation and the constant-feature list
//     persist across nodes exactly as in BestSplitter, so ties between equally
//     good features resolve as in sklearn.
//   - Entropy uses Go's math.Log where sklearn uses the C library's log; the
//     two differ by one ulp for some arguments, so entropy impurities may
//     differ in their last bits (tree structure is unaffected on the
//     reference vectors).
//   - Nominal columns are treated as plain numbers, as the paper's code does.
//   - NaN and infinite inputs are rejected (sklearn 1.2 rejects them too).
//
// The split search presorts every column once per fit and keeps, for each
// column, the node's samples in sorted order (stable partitioning on every
// split). With unit weights the order of samples inside a node never changes
// a split choice, threshold, count or impurity, so this reproduces sklearn's
// per-node introsort bit for bit while doing O(n·d) work per tree level.
//
// The entropy criterion screens candidates with a logarithm-free bound
// (integer counts, a k·ln k table) and computes sklearn's proxy, logarithms
// and all, only for candidates that could beat the best so far; the chosen
// splits and all impurities are those of the exact scan, at about the cost
// of gini.
//
// A large fit given a CPU budget (WithThreads) grows speculatively on the
// budget's free threads and replays sklearn's draws in building order
// (speculate.go); the tree is the serial one, bit for bit.
package cart

import (
	"errors"
	"fmt"
	"math"

	"github.com/fgrtbench/fgrtbench/internal/par"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Criterion selects the impurity measure.
type Criterion int

// Supported criteria.
const (
	Gini Criterion = iota
	Entropy
)

func (c Criterion) String() string {
	switch c {
	case Gini:
		return "gini"
	case Entropy:
		return "entropy"
	}
	return fmt.Sprintf("Criterion(%d)", int(c))
}

// ParseCriterion maps sklearn's criterion names to a Criterion. "log_loss"
// is sklearn's alias of entropy.
func ParseCriterion(s string) (Criterion, error) {
	switch s {
	case "gini":
		return Gini, nil
	case "entropy", "log_loss":
		return Entropy, nil
	}
	return 0, fmt.Errorf("cart: unknown criterion %q (want gini or entropy)", s)
}

// UnmarshalText parses a criterion as ParseCriterion does, so that a
// configuration decodes it (learn.Decode).
func (c *Criterion) UnmarshalText(b []byte) error {
	v, err := ParseCriterion(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Config holds DecisionTreeClassifier's hyperparameters for this port.
type Config struct {
	Criterion Criterion `param:"criterion"`
	// MaxDepth limits the depth of the tree (root = depth 0); 0 means
	// unlimited (sklearn's max_depth=None).
	MaxDepth int `param:"max_depth"`
	// MinSamplesSplit is the minimum number of samples a node needs to be
	// split (>= 2). As in sklearn, the effective value is
	// max(MinSamplesSplit, 2*MinSamplesLeaf).
	MinSamplesSplit int `param:"min_samples_split"`
	// MinSamplesLeaf is the minimum number of samples in each child (>= 1).
	MinSamplesLeaf int `param:"min_samples_leaf"`
	// MinImpurityDecrease stops a split whose weighted impurity decrease is
	// below it (>= 0).
	MinImpurityDecrease float64 `param:"min_impurity_decrease"`
	// MaxFeatures is the number of features drawn per node; 0 means all
	// (sklearn's max_features=None).
	MaxFeatures int `param:"max_features"`
	// CCPAlpha is the complexity parameter of minimal cost-complexity
	// pruning (>= 0); 0 disables pruning.
	CCPAlpha float64 `param:"ccp_alpha"`
	// RandomState seeds the feature visiting order (sklearn's random_state).
	RandomState uint32 `param:"random_state"`
}

// DefaultConfig returns sklearn's defaults (gini, fully grown, random_state 0).
func DefaultConfig() Config {
	return Config{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1}
}

// PaperConfig returns the settings of the paper's code:
// DecisionTreeClassifier(criterion, random_state=42, min_samples_split=5,
// min_samples_leaf=2).
// They are the defaults Spec and EntropySpec declare.
func PaperConfig(c Criterion) Config {
	p := settings.Defaults()
	p.Criterion = c
	return p
}

// Validate reports the first invalid parameter: an unknown criterion or a
// value outside the bounds Spec's parameters declare.
func (p Config) Validate() error {
	if p.Criterion != Gini && p.Criterion != Entropy {
		return fmt.Errorf("cart: invalid criterion %d", int(p.Criterion))
	}
	return settings.CheckBounds(p)
}

// Trainer fits trees with fixed parameters. It keeps no state between Fit
// calls and is safe for concurrent use.
type Trainer struct {
	params Config
	// threads is the CPU budget a fit's large nodes spread over (nil:
	// serial; see WithThreads). It is not a setting: every budget grows
	// the same tree.
	threads *par.Budget
}

// New validates p and returns a Trainer.
func New(p Config) (*Trainer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{params: p}, nil
}

// Config returns the trainer's parameters.
func (t *Trainer) Config() Config { return t.params }

// Fit grows a tree (and prunes it when CCPAlpha > 0). It implements
// learn.Trainer.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	tree, err := t.FitTree(X, y, s)
	if err != nil {
		return nil, err
	}
	return tree, nil
}

// FitTree is Fit with the concrete result type.
func (t *Trainer) FitTree(X [][]float64, y []int, s learn.Schema) (*Tree, error) {
	data, err := prepare(X, y, s)
	if err != nil {
		return nil, err
	}
	if err := t.checkMaxFeatures(data.d); err != nil {
		return nil, err
	}
	tree := build(data, t.params, t.threads)
	if t.params.CCPAlpha != 0 {
		tree = tree.Prune(t.params.CCPAlpha)
	}
	return tree, nil
}

// FitGroup fits every trainer of ts on the same rows (learn.GroupFitter):
// trainers whose parameters equal t's up to CCPAlpha prune one grown tree
// (pruning never changes the growth); others fit on their own. The models
// are those of separate Fit calls.
func (t *Trainer) FitGroup(ts []learn.Trainer, X [][]float64, y []int, s learn.Schema) ([]learn.Model, error) {
	base := t.params
	base.CCPAlpha = 0
	var grown *Tree
	out := make([]learn.Model, len(ts))
	for i, lt := range ts {
		u, ok := lt.(*Trainer)
		var p Config
		if ok {
			p = u.params
			p.CCPAlpha = 0
		}
		if !ok || p != base {
			m, err := lt.Fit(X, y, s)
			if err != nil {
				return nil, err
			}
			out[i] = m
			continue
		}
		if grown == nil {
			var err error
			if grown, err = (&Trainer{params: base, threads: t.threads}).FitTree(X, y, s); err != nil {
				return nil, err
			}
		}
		if alpha := u.params.CCPAlpha; alpha != 0 {
			out[i] = grown.Prune(alpha)
		} else {
			out[i] = grown
		}
	}
	return out, nil
}

var _ learn.GroupFitter = (*Trainer)(nil)

// PruningPath returns sklearn's cost_complexity_pruning_path for the
// unpruned tree these parameters grow on (X, y): the effective alphas and
// the total leaf impurity after each collapse (CCPAlpha itself is ignored).
func (t *Trainer) PruningPath(X [][]float64, y []int, s learn.Schema) (alphas, impurities []float64, err error) {
	data, err := prepare(X, y, s)
	if err != nil {
		return nil, nil, err
	}
	if err := t.checkMaxFeatures(data.d); err != nil {
		return nil, nil, err
	}
	alphas, impurities = build(data, t.params, t.threads).PruningPath()
	return alphas, impurities, nil
}

// checkMaxFeatures rejects max_features above the number of columns, as
// sklearn does ("max_features must be in (0, n_features]").
func (t *Trainer) checkMaxFeatures(d int) error {
	if t.params.MaxFeatures > d {
		return fmt.Errorf("cart: max_features %d exceeds the %d features", t.params.MaxFeatures, d)
	}
	return nil
}

// dataset is the training set in the layout the builder scans: float32
// values column by column, labels as int32.
type dataset struct {
	n, d, classes int
	cols          []float32 // cols[f*n+i] = float32(X[i][f])
	y             []int32
}

// errNoFeatures is returned for a schema without columns (sklearn rejects
// arrays with 0 features).
var errNoFeatures = errors.New("cart: training data has no features")

func prepare(X [][]float64, y []int, s learn.Schema) (*dataset, error) {
	if err := learn.CheckXY(X, y, s, false); err != nil {
		return nil, fmt.Errorf("cart: %w (scikit-learn 1.2 DecisionTreeClassifier rejects missing values)", err)
	}
	n, d := len(X), s.NumFeatures()
	if d == 0 {
		return nil, errNoFeatures
	}
	data := &dataset{n: n, d: d, classes: s.NumClasses(), cols: make([]float32, n*d), y: make([]int32, n)}
	for i, row := range X {
		data.y[i] = int32(y[i])
		for f, v := range row {
			v32 := float32(v)
			if math.IsInf(float64(v32), 0) {
				return nil, fmt.Errorf("cart: row %d column %d (%s) is %v, not finite in float32", i, f, s.FeatureName(f), v)
			}
			data.cols[f*n+i] = v32
		}
	}
	return data, nil
}
