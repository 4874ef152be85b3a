// Package ripper is RIPPER as the Python package wittgenstein (v0.3.x) runs
// it, wrapped for multiclass data the way scikit-learn's
// OneVsRestClassifier(RIPPER()) does.
//
// Pipeline of one Fit (docs/fidelity.md#ripper):
//   - numeric columns with more than n_discretize_bins distinct values are cut
//     into at most that many equal-frequency bins (pandas qcut, edges rounded
//     as pandas labels them, empty bins dropped, outer edges ±Inf); other
//     columns keep their values. Conditions are equalities feature == bin or
//     feature == value, listed per column in order of first appearance.
//   - per positive class: IREP* growth (Laplace FOIL gain, prune metric
//     (p−n+1)/(p+n+1), DL stop with an allowance of dl_allowance bits),
//     k optimisation passes (replacement / revision, accuracy pruning, DL
//     choice), a cover pass over all training examples, best-subset DL
//     simplification, duplicate removal, and smoothed rule probabilities.
//   - classes: two present classes fit one rule set for the later class and
//     predict it when its probability exceeds 0.5; three or more fit one rule
//     set per class and predict the highest positive probability, ties going
//     to the last class; a single present class is always predicted.
//
// Randomness: wittgenstein shuffles before every grow/prune split with
// Python's random, reseeded from the OS when random_state is None (the
// default the paper names). Here every split draws a fresh Fisher–Yates
// shuffle from one math/rand/v2 PCG stream per binary problem, seeded by the
// trainer's seed and the class index: same seed, same model; the same
// distribution as independent shuffles, not Python's bit stream.
//
// Verification: with Config.Unshuffled both sides' splits can be fixed; the
// golden test then reproduces wittgenstein's rule sets and predictions
// exactly (testdata/make_golden.py).
//
// Missing values (NaN) match no condition, as a pandas NaN equals nothing;
// like wittgenstein, a column holding NaN still lists one (never satisfied)
// NaN condition, which counts towards the theory bits' condition total.
package ripper

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/npsum"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Config holds RIPPER's hyperparameters; DefaultConfig returns wittgenstein's.
type Config struct {
	// K is the number of optimisation passes.
	K int `param:"k"`
	// PruneSize is the share of the remaining examples held out for pruning
	// at each rule, within the bounds Spec declares (0.0001 to 0.9999).
	PruneSize float64 `param:"prune_size"`
	// DLAllowance stops rule-set growth once the description length exceeds
	// the smallest seen so far by more than this many bits.
	DLAllowance float64 `param:"dl_allowance"`
	// NBins is the maximum number of equal-frequency bins per numeric column.
	NBins int `param:"n_discretize_bins"`
	// MaxRules and MaxRuleConds are early stops; 0 means no limit.
	MaxRules     int `param:"max_rules"`
	MaxRuleConds int `param:"max_rule_conds"`
	// Alpha is the additive smoothing of the rule probabilities.
	Alpha float64
	// Seed seeds the grow/prune splits.
	Seed int64
	// Unshuffled makes every grow/prune split take the rows in index order
	// instead of shuffling them (grow set = the first int(n·(1−PruneSize))).
	// It exists to compare the learner step by step with a reference run
	// whose splits are fixed the same way; it is not a modelling option.
	Unshuffled bool
}

// DefaultConfig returns wittgenstein's defaults (k=2, prune_size=0.33,
// dl_allowance=64, n_discretize_bins=10, alpha=1, no limits).
func DefaultConfig() Config {
	c := Config{Alpha: 1} // a setting no parameter exposes
	learn.MustDefaults(params, &c)
	return c
}

// Validate reports the first invalid setting: a value outside the bounds
// Spec's parameters declare, or a smoothing Alpha that is not positive.
func (c Config) Validate() error {
	err := learn.CheckBounds(params,
		learn.Number{Name: "k", Value: float64(c.K)},
		learn.Number{Name: "prune_size", Value: c.PruneSize},
		learn.Number{Name: "dl_allowance", Value: c.DLAllowance},
		learn.Number{Name: "n_discretize_bins", Value: float64(c.NBins)},
		learn.Number{Name: "max_rules", Value: float64(c.MaxRules)},
		learn.Number{Name: "max_rule_conds", Value: float64(c.MaxRuleConds)})
	switch {
	case err != nil:
		return fmt.Errorf("ripper: %v", err)
	case math.IsNaN(c.Alpha) || c.Alpha <= 0:
		return fmt.Errorf("ripper: alpha = %v, want > 0", c.Alpha)
	}
	return nil
}

var (
	_ learn.Trainer = (*Trainer)(nil)
	_ learn.Model   = (*Model)(nil)
)

// Trainer fits RIPPER models. It keeps no state between Fit calls.
type Trainer struct {
	cfg Config
}

// New validates cfg and returns a Trainer.
func New(cfg Config) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{cfg: cfg}, nil
}

// Model is a fitted one-vs-rest RIPPER classifier.
type Model struct {
	columns []*column
	conds   []cond
	// present lists the class indices seen in training, ascending.
	present []int
	// estimators[e] is the rule set whose positive class is positives[e].
	estimators []binaryModel
	positives  []int
}

// Fit learns a model. NaN cells are allowed (they match no condition);
// infinite cells are rejected.
func (t *Trainer) Fit(X [][]float64, y []int, s learn.Schema) (learn.Model, error) {
	if err := learn.CheckXY(X, y, s, true); err != nil {
		return nil, err
	}
	for i, row := range X {
		for j, v := range row {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("ripper: row %d column %d (%s) is infinite", i, j, s.FeatureName(j))
			}
		}
	}
	return t.fit(X, y, s), nil
}

func (t *Trainer) fit(X [][]float64, y []int, s learn.Schema) *Model {
	n, d := len(X), s.NumFeatures()
	m := &Model{columns: make([]*column, d)}
	sp := &space{nRows: n, all: newBitset(n), lg: newLog2Table(n)}
	for i := 0; i < n; i++ {
		sp.all.set(i)
	}
	vals := make([]float64, n)
	codes := make([]int, n)
	for j := 0; j < d; j++ {
		for i := range X {
			vals[i] = X[i][j]
		}
		col := fitColumn(vals, s.Features[j].Nominal, t.cfg.NBins)
		m.columns[j] = col
		// conditions in order of first appearance; the missing code gets
		// one (empty) condition too
		seen := make([]bool, col.numCodes()+1) // index 0 = missing
		var order []int
		for i, v := range vals {
			c := col.code(v)
			codes[i] = c
			if !seen[c+1] {
				seen[c+1] = true
				order = append(order, c)
			}
		}
		condOf := make([]int, col.numCodes()+1) // code+1 → condition index
		for _, c := range order {
			condOf[c+1] = len(sp.conds)
			sp.conds = append(sp.conds, cond{feature: j, code: c})
			sp.cover = append(sp.cover, newBitset(n))
		}
		for i, c := range codes {
			if c != missingCode {
				sp.cover[condOf[c+1]].set(i)
			}
		}
	}
	m.conds = sp.conds

	counts := make([]int, s.NumClasses())
	for _, c := range y {
		counts[c]++
	}
	for c, k := range counts {
		if k > 0 {
			m.present = append(m.present, c)
		}
	}
	var positives []int
	switch len(m.present) {
	case 1:
		// one class: scikit-learn predicts it for every row
	case 2:
		positives = m.present[1:]
	default:
		positives = m.present
	}
	p := binaryParams{
		k: t.cfg.K, pruneSize: t.cfg.PruneSize, dlAllowance: t.cfg.DLAllowance,
		maxRules: t.cfg.MaxRules, maxRuleConds: t.cfg.MaxRuleConds, alpha: t.cfg.Alpha,
		unshuffled: t.cfg.Unshuffled,
	}
	for _, cls := range positives {
		pos := newBitset(n)
		for i, c := range y {
			if c == cls {
				pos.set(i)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(t.cfg.Seed), 0x9e3779b97f4a7c15^uint64(cls)))
		m.estimators = append(m.estimators, newBinaryRipper(sp, p, pos, rng).fit())
		m.positives = append(m.positives, cls)
	}
	return m
}

// encode maps a raw row to condition codes.
func (m *Model) encode(row []float64, dst []int) {
	for j, col := range m.columns {
		dst[j] = col.code(row[j])
	}
}

func (m *Model) covers(r rule, codes []int) bool {
	for _, c := range r {
		cd := m.conds[c]
		if cd.code == missingCode || codes[cd.feature] != cd.code {
			return false
		}
	}
	return true
}

// positiveProba is wittgenstein's predict_proba(...)[:, 1] for one row: the
// uncovered rate when no rule fires, else the pooled (neg, pos) rates of the
// firing rules, pos / (neg + pos) with numpy's summation order.
func (m *Model) positiveProba(e int, codes []int, scratch *[]float64) float64 {
	est := &m.estimators[e]
	buf := (*scratch)[:0]
	defer func() { *scratch = buf }()
	var colNeg, colPos float64
	for i, r := range est.rules {
		if m.covers(r, codes) {
			pr := est.ruleProb[i]
			if len(buf) == 0 {
				colNeg, colPos = pr[0], pr[1]
			} else {
				colNeg += pr[0]
				colPos += pr[1]
			}
			buf = append(buf, pr[0], pr[1])
		}
	}
	if len(buf) == 0 {
		u := est.uncovered
		return u[1] / npsum.Sum([]float64{u[0], u[1]})
	}
	return colPos / npsum.Sum(buf)
}

// Predict returns one class index per row (-1 for a row whose width does
// not match the training schema).
func (m *Model) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	codes := make([]int, len(m.columns))
	var buf []float64
	for i, row := range X {
		if len(row) != len(m.columns) {
			out[i] = -1
			continue
		}
		m.encode(row, codes)
		switch {
		case len(m.present) == 1:
			out[i] = m.present[0]
		case len(m.present) == 2:
			if m.positiveProba(0, codes, &buf) > 0.5 {
				out[i] = m.present[1]
			} else {
				out[i] = m.present[0]
			}
		default:
			best, arg := math.Inf(-1), 0
			for e := range m.estimators {
				if s := m.positiveProba(e, codes, &buf); s >= best {
					best, arg = s, e
				}
			}
			out[i] = m.positives[arg]
		}
	}
	return out
}

// Complexity counts the rules and conditions of all rule sets (no default
// rule).
func (m *Model) Complexity() learn.Complexity {
	var c learn.Complexity
	for _, e := range m.estimators {
		c.Rules += len(e.rules)
		for _, r := range e.rules {
			c.Antecedents += len(r)
		}
	}
	c.Leaves = c.Rules
	return c
}

// condString renders "feature=value" with bins as right-closed ranges and
// nominal codes by their category names; num, when not nil, prints the
// numbers of feature j (bin edges, raw values) instead of the learner's
// own spelling.
func (m *Model) condString(c cond, s learn.Schema, num func(j int, v float64) string) string {
	name := s.FeatureName(c.feature)
	col := m.columns[c.feature]
	if c.code == missingCode {
		return name + "=nan"
	}
	if col.binned {
		if num != nil {
			return name + "=" + col.binLabelWith(c.code, func(v float64) string { return num(c.feature, v) })
		}
		return name + "=" + col.binLabel(c.code)
	}
	v := col.values[c.code]
	if c.feature < len(s.Features) && s.Features[c.feature].Nominal {
		cats := s.Features[c.feature].Categories
		if k := int(v); float64(k) == v && k >= 0 && k < len(cats) {
			return name + "=" + cats[k]
		}
	}
	if num != nil {
		return name + "=" + num(c.feature, v)
	}
	return name + "=" + strconv.FormatFloat(v, 'g', -1, 64)
}

// Rules renders each rule set as IF ... THEN lines, followed by how the rule
// sets combine into a prediction.
func (m *Model) Rules(s learn.Schema) string { return m.rules(s, nil) }

// ReadableRules renders the lines of Rules with every bin edge and raw
// value of a numeric feature mapped back through unscale and printed by
// learn.ReadableNumber (learn.ReadableRuler): "Proline=<757.0" rather
// than "Proline=<0.0181".
func (m *Model) ReadableRules(s learn.Schema, unscale learn.Unscale) string {
	return m.rules(s, func(j int, v float64) string {
		if unscale != nil {
			v = unscale(j, v)
		}
		return learn.ReadableNumber(v)
	})
}

var _ learn.ReadableRuler = (*Model)(nil)

// rules renders the rule sets, the numbers of the conditions printed by
// num (nil: the learner's own spelling).
func (m *Model) rules(s learn.Schema, num func(j int, v float64) string) string {
	var b strings.Builder
	if len(m.present) == 1 {
		// No rule (Complexity counts none): scikit-learn's one-vs-rest
		// predicts the constant class.
		fmt.Fprintf(&b, "# the training set held one class: every row is predicted class %s\n", s.ClassName(m.present[0]))
		return b.String()
	}
	var probs []string
	for e, est := range m.estimators {
		cls := s.ClassName(m.positives[e])
		for i, r := range est.rules {
			parts := make([]string, len(r))
			for k, c := range r {
				parts[k] = m.condString(m.conds[c], s, num)
			}
			ante := "TRUE"
			if len(parts) > 0 {
				ante = strings.Join(parts, " AND ")
			}
			fmt.Fprintf(&b, "IF %s THEN class %s\n", ante, cls)
			probs = append(probs, fmt.Sprintf("%.3f", est.ruleProb[i][1]))
		}
		fmt.Fprintf(&b, "# p(class %s) per rule above: [%s]; when none fires: %.3f\n", cls, strings.Join(probs, " "), est.uncovered[1])
		probs = probs[:0]
	}
	if len(m.present) == 2 {
		fmt.Fprintf(&b, "# predict class %s when the mean p of its firing rules > 0.5, else class %s\n",
			s.ClassName(m.present[1]), s.ClassName(m.present[0]))
	} else {
		b.WriteString("# predict the class of highest p (mean over firing rules; ties: later class)\n")
	}
	return b.String()
}

// BinLabels returns the interval labels of a discretised feature in bin
// order ("<5.1", "5.1-5.8", ">6.4"; intervals are right-closed), or nil when
// the feature kept its raw values.
func (m *Model) BinLabels(feature int) []string {
	if feature < 0 || feature >= len(m.columns) || !m.columns[feature].binned {
		return nil
	}
	col := m.columns[feature]
	out := make([]string, len(col.rights))
	for k := range out {
		out[k] = col.binLabel(k)
	}
	return out
}
