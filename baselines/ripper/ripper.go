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
func DefaultConfig() Config { return settings.Defaults() }

// Validate reports the first invalid setting: a value outside the bounds
// Spec's parameters declare, or a smoothing Alpha that is not positive.
func (c Config) Validate() error {
	err := settings.CheckBounds(c)
	switch {
	case err != nil:
		return err
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
	// training is what the rules cover of the training rows, for the
	// readable rules; nil for a model rebuilt from its description, which
	// keeps only the smoothed rates that predict.
	training *coverage
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
	m.training = m.cover(sp, y)
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
		out[i] = m.predictCodes(codes, &buf)
	}
	return out
}

// predictCodes is the class of one encoded row: with one training class
// that class; with two, the second when the pooled p of its firing rules
// (or the uncovered p) exceeds 0.5; with more, the class of highest p
// (the later class on ties).
func (m *Model) predictCodes(codes []int, buf *[]float64) int {
	switch {
	case len(m.present) == 1:
		return m.present[0]
	case len(m.present) == 2:
		if m.positiveProba(0, codes, buf) > 0.5 {
			return m.present[1]
		}
		return m.present[0]
	}
	best, arg := math.Inf(-1), 0
	for e := range m.estimators {
		if s := m.positiveProba(e, codes, buf); s >= best {
			best, arg = s, e
		}
	}
	return m.positives[arg]
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

// readableCond renders a condition for a reader, in the form of the
// other learners' rules: a bin as the interval it is ("877.2 < Proline
// <= 1036", "Proline <= 757.0", "Proline > 1255"), a raw value or a
// category as "name = value"; num prints the numbers of feature j.
func (m *Model) readableCond(c cond, s learn.Schema, num func(j int, v float64) string) string {
	name := s.FeatureName(c.feature)
	col := m.columns[c.feature]
	if c.code == missingCode {
		return name + " = nan"
	}
	if !col.binned {
		return name + " = " + strings.TrimPrefix(m.condString(c, s, num), name+"=")
	}
	l, r := col.lefts[c.code], col.rights[c.code]
	switch {
	case math.IsInf(l, -1) && math.IsInf(r, 1):
		return name + " = any"
	case math.IsInf(l, -1):
		return name + " <= " + num(c.feature, r)
	case math.IsInf(r, 1):
		return name + " > " + num(c.feature, l)
	}
	return num(c.feature, l) + " < " + name + " <= " + num(c.feature, r)
}

// Rules renders each rule set as IF ... THEN lines, followed by how the rule
// sets combine into a prediction.
func (m *Model) Rules(s learn.Schema) string { return m.rules(s, nil) }

// ReadableRules renders the rules of Rules, line for line, in the form of
// the other learners' rules (readableCond: "877.2 < Proline <= 1036"
// rather than "Proline=877.2-1036"), every bin edge and raw value of a
// numeric feature mapped back through unscale and printed by
// learn.ReadableNumber, each rule followed by its learn.RuleStats (its
// share of the training rows and the share of those of its class), then
// the default rule (learn.DefaultRulePrefix): the class predicted for a
// row no rule covers, with the share of the training rows no rule covers
// and the share of those of that class (learn.ReadableRuler). A model
// rebuilt from its description knows no training rows: its lines carry
// no statistics.
func (m *Model) ReadableRules(s learn.Schema, unscale learn.Unscale) string {
	num := func(j int, v float64) string {
		if unscale != nil {
			v = unscale(j, v)
		}
		return learn.ReadableNumber(v)
	}
	var b strings.Builder
	for e, est := range m.estimators {
		cls := s.ClassName(m.positives[e])
		for i, r := range est.rules {
			ante := m.antecedent(r, func(c cond) string { return m.readableCond(c, s, num) })
			fmt.Fprintf(&b, "IF %s THEN class %s", ante, cls)
			if m.training != nil {
				b.WriteString(m.training.rules[e][i].stats())
			}
			b.WriteByte('\n')
		}
	}
	var buf []float64
	fmt.Fprintf(&b, "%sclass %s", learn.DefaultRulePrefix, s.ClassName(m.defaultClass(&buf)))
	if m.training != nil {
		b.WriteString(m.training.uncovered.stats())
	}
	b.WriteByte('\n')
	if len(m.present) > 2 {
		b.WriteString("# one rule set per class: a row that rules of several classes cover gets the class of highest mean smoothed p of its firing rules\n")
	}
	return b.String()
}

// defaultClass is the class predicted for a row that no rule covers.
func (m *Model) defaultClass(buf *[]float64) int {
	codes := make([]int, len(m.columns))
	for j := range codes {
		codes[j] = uncoveredCode
	}
	return m.predictCodes(codes, buf)
}

// uncoveredCode is a code no condition matches: not a value's, a bin's or
// the missing value's.
const uncoveredCode = missingCode - 1

// coverage is what a model's rules cover of its training rows: per rule
// set and rule, and for the rows no rule of any set covers.
type coverage struct {
	rules     [][]share
	uncovered share
}

// share counts rows: of n training rows, covered are those a rule covers
// and correct those of them of the rule's class.
type share struct{ n, covered, correct int }

// stats is the learn.RuleStats of a share (0 for a share of no rows).
func (c share) stats() string {
	var coverage, confidence float64
	if c.n > 0 {
		coverage = float64(c.covered) / float64(c.n)
	}
	if c.covered > 0 {
		confidence = float64(c.correct) / float64(c.covered)
	}
	return learn.RuleStats(coverage, confidence)
}

// cover counts what the fitted rules cover of the training rows sp holds,
// of classes y.
func (m *Model) cover(sp *space, y []int) *coverage {
	n := len(y)
	cv := &coverage{uncovered: share{n: n}}
	union, rows := newBitset(n), newBitset(n)
	var idx []int
	for e, est := range m.estimators {
		shares := make([]share, len(est.rules))
		for i, r := range est.rules {
			copy(rows, sp.all)
			for _, c := range r {
				rows.and(sp.cover[c])
			}
			union.or(rows)
			shares[i] = share{n: n}
			idx = rows.indices(idx[:0])
			for _, row := range idx {
				shares[i].covered++
				if y[row] == m.positives[e] {
					shares[i].correct++
				}
			}
		}
		cv.rules = append(cv.rules, shares)
	}
	var buf []float64
	dflt := m.defaultClass(&buf)
	copy(rows, sp.all)
	rows.andNot(union)
	for _, row := range rows.indices(idx[:0]) {
		cv.uncovered.covered++
		if y[row] == dflt {
			cv.uncovered.correct++
		}
	}
	return cv
}

var _ learn.ReadableRuler = (*Model)(nil)

// antecedent joins a rule's conditions, each spelled by spell, with AND;
// a rule without conditions reads TRUE.
func (m *Model) antecedent(r rule, spell func(cond) string) string {
	if len(r) == 0 {
		return "TRUE"
	}
	parts := make([]string, len(r))
	for k, c := range r {
		parts[k] = spell(m.conds[c])
	}
	return strings.Join(parts, " AND ")
}

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
			ante := m.antecedent(r, func(c cond) string { return m.condString(c, s, num) })
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
