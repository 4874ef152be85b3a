package analysis

import (
	"iter"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// Artifacts are a study's stored predictions and models, as
// artifacts.Read read and re-derived them.
type Artifacts struct {
	Predictions artifacts.Predictions
	Models      artifacts.Models
}

// Predictive is what the stored predictions say of one (protocol,
// dataset, method), over the test rows of the selected configuration of
// every fold and repeat (each test row once per repeat).
type Predictive struct {
	Protocol string `json:"protocol"`
	Dataset  string `json:"dataset"`
	Method   string `json:"method"`
	// Classes orders Confusion's rows (true class) and columns
	// (predicted class).
	Classes   []string `json:"classes"`
	Confusion [][]int  `json:"confusion"`
	// Unpredicted counts test rows without a prediction.
	Unpredicted int `json:"unpredicted,omitempty"`
	Rows        int `json:"rows"`
	// AUC (one-vs-rest, macro) and LogLoss of the pooled test rows'
	// scores; absent when the method stores no scores.
	AUC     *float64 `json:"auc,omitempty"`
	LogLoss *float64 `json:"log_loss,omitempty"`
}

// RuleCount is one rule and the number of models (folds × repeats) that
// hold it.
type RuleCount struct {
	Rule   string `json:"rule"`
	Models int    `json:"models"`
}

// Stability is the rule stability of one (protocol, dataset, method): how
// alike the rule sets of its selected models are across folds, repeats
// and seeds. Rules are compared as strings (without the statistics a
// learner prints after them, such as FGRT's coverage and confidence), as
// a reader reads them: where every model records readable rules
// (artifacts.ModelRecord.ReadableRules: CART, C4.5, RIPPER), those, with
// thresholds in the data's units at 4 significant digits, so that the
// same split found in two folds (each with its own scaler) reads as one
// rule; otherwise the learner's own strings.
type Stability struct {
	Protocol string `json:"protocol"`
	Dataset  string `json:"dataset"`
	Method   string `json:"method"`
	Models   int    `json:"models"`
	// MeanRules is the mean rule count; Distinct the number of different
	// rules over all models.
	MeanRules float64 `json:"mean_rules"`
	Distinct  int     `json:"distinct_rules"`
	// Jaccard is the mean pairwise Jaccard similarity of the models' rule
	// sets (absent with fewer than two models).
	Jaccard *float64 `json:"mean_jaccard,omitempty"`
	// Recurring lists the rules held by more than one model, most
	// frequent first; RecurringAntecedents the same for the conditions
	// the rules are made of ("x IS Low", "y <= 0.3").
	Recurring            []RuleCount `json:"recurring,omitempty"`
	RecurringAntecedents []RuleCount `json:"recurring_antecedents,omitempty"`
	// Representative is the fold whose accuracy is the median, with its
	// rules and the partitions they use (data units).
	Representative RepresentativeModel `json:"representative"`
	// LearnerUnits is true when the rules are the learner's own strings
	// although some are not in the data's units: a study stored before
	// readable rules were recorded, whose numeric thresholds are in the
	// units the learner saw (the protocol's scaled units, if it scales).
	LearnerUnits bool `json:"rules_in_learner_units,omitempty"`
	// DataUnits is true when the rules compared and shown are readable
	// rules: numeric thresholds in the data's units, to 4 significant
	// digits. Neither flag is set for rules without thresholds (FGRT).
	DataUnits bool `json:"rules_in_data_units,omitempty"`
}

// RepresentativeModel is the model of a representative fold.
type RepresentativeModel struct {
	Key      string   `json:"key"`
	Repeat   int      `json:"repeat"`
	Fold     int      `json:"fold"`
	Accuracy float64  `json:"accuracy"`
	Config   string   `json:"config"`
	Rules    []string `json:"rules"`
	// RulesOmitted counts the rules after the first
	// MaxRepresentativeRules, which are left out (the artifacts keep them).
	RulesOmitted int                   `json:"rules_omitted,omitempty"`
	Partitions   []artifacts.NamedTerm `json:"partitions,omitempty"`
	// Default is the model's default rule as its readable rules print it
	// (artifacts.ModelRecord.ReadableDefault): the class a row no rule
	// covers gets; "" for a learner without one.
	Default string `json:"default_rule,omitempty"`
}

// MaxRepresentativeRules is the number of a representative model's rules
// the analysis keeps, and the report shows: a deep tree on large data has
// 10^5 rules (tens of MB of text that no reader reads through), while the
// models of the paper's study have a few hundred at most. The rest are
// counted; 'fgrtbench rules --results' prints a stored model whole.
const MaxRepresentativeRules = 1000

// eachAntecedent calls fn with each condition of a rule text "IF a AND b
// THEN c" in turn (none for "IF TRUE THEN c" or a text of another form),
// without building a slice (a deep tree's rules have tens of conditions
// each).
func eachAntecedent(rule string, fn func(string)) {
	body, ok := strings.CutPrefix(RuleText(rule), "IF ")
	if !ok {
		return
	}
	cond, _, ok := strings.Cut(body, " THEN ")
	if !ok || cond == "TRUE" {
		return
	}
	for {
		c, rest, more := strings.Cut(cond, " AND ")
		fn(c)
		if !more {
			return
		}
		cond = rest
	}
}

// RuleText is a rule as compared across models: the learner's rule string
// without trailing statistics in brackets ("IF x IS Low THEN class 2
// [coverage 0.31, confidence 0.98]" → "IF x IS Low THEN class 2").
func RuleText(rule string) string {
	// The suffix first: a rule without statistics is not searched for " ["
	// (a deep tree's rules run to hundreds of bytes).
	if !strings.HasSuffix(rule, "]") {
		return strings.TrimSpace(rule)
	}
	if i := strings.LastIndex(rule, " ["); i > 0 {
		return strings.TrimSpace(rule[:i])
	}
	return strings.TrimSpace(rule)
}

// unitConfig is one recorded configuration of one unit.
type unitConfig struct {
	key string
	ci  int
}

// computeArtifacts derives the confusion matrices, AUC, log-loss and rule
// stability of every cell from the artifacts (recs carry the short
// dataset names).
func computeArtifacts(recs []results.Record, art Artifacts, order []Cell) ([]Predictive, []Stability) {
	selected, byCell := selectedByUnit(recs)
	models := map[unitConfig]artifacts.ModelRecord{}
	for _, m := range art.Models.Records {
		models[unitConfig{m.Key, m.ConfigIndex}] = m
	}
	scoreCol := map[string]int{}
	for i, c := range art.Predictions.ScoreClasses {
		scoreCol[c] = i
	}
	rowsOf := poolPredictions(art.Predictions.Rows, selected)
	var preds []Predictive
	var stab []Stability
	for _, c := range order {
		k := cellKey{c.Protocol, c.Dataset, c.Method}
		rows := byCell[k]
		if len(rows) == 0 {
			continue
		}
		var classes []string
		if m, ok := models[unitConfig{rows[0].Key, rows[0].ConfigIndex}]; ok {
			classes = m.Classes
		}
		if pr := rowsOf[k]; pr != nil {
			preds = append(preds, predictive(k, classes, pr, scoreCol))
		}
		if s, ok := stability(k, rows, models); ok {
			stab = append(stab, s)
		}
	}
	return preds, stab
}

// selectedByUnit indexes the selected records by unit and configuration,
// and groups them by cell.
func selectedByUnit(recs []results.Record) (map[unitConfig]results.Record, map[cellKey][]results.Record) {
	selected := map[unitConfig]results.Record{}
	byCell := map[cellKey][]results.Record{}
	for _, r := range recs {
		if r.Selected {
			selected[unitConfig{r.Key, r.ConfigIndex}] = r
			k := cellKey{r.Protocol, r.Dataset, r.Method}
			byCell[k] = append(byCell[k], r)
		}
	}
	return selected, byCell
}

// poolPredictions pools the prediction rows of the selected
// configurations by cell. A configuration's rows are contiguous: its cell
// is looked up once per run of rows, not per row (millions in a full
// reproduction), and the run is pooled as a subslice, not copied (on 10^6
// rows the copies were 200 MB).
func poolPredictions(all []artifacts.PredictionRow, selected map[unitConfig]results.Record) map[cellKey]*pooledRows {
	rowsOf := map[cellKey]*pooledRows{}
	var run *pooledRows
	runKey, start := unitConfig{ci: -1}, 0
	flush := func(end int) {
		if run != nil && end > start {
			run.spans = append(run.spans, all[start:end])
			run.n += end - start
		}
	}
	for i := range all {
		p := &all[i]
		if p.Key != runKey.key || p.ConfigIndex != runKey.ci {
			flush(i)
			runKey, run, start = unitConfig{p.Key, p.ConfigIndex}, nil, i
			if r, ok := selected[runKey]; ok {
				k := cellKey{r.Protocol, r.Dataset, r.Method}
				if rowsOf[k] == nil {
					rowsOf[k] = &pooledRows{}
				}
				run = rowsOf[k]
			}
		}
	}
	flush(len(all))
	return rowsOf
}

// pooledRows is a cell's prediction rows: runs of the artifact's rows, in
// file order.
type pooledRows struct {
	spans [][]artifacts.PredictionRow
	n     int
}

// all yields the rows in order.
func (p *pooledRows) all() iter.Seq[*artifacts.PredictionRow] {
	return func(yield func(*artifacts.PredictionRow) bool) {
		for _, span := range p.spans {
			for i := range span {
				if !yield(&span[i]) {
					return
				}
			}
		}
	}
}

func predictive(k cellKey, classes []string, rows *pooledRows, scoreCol map[string]int) Predictive {
	classes, index, extra := predictedClasses(classes, rows)
	p := Predictive{Protocol: k.protocol, Dataset: k.dataset, Method: k.method, Classes: classes, Rows: rows.n}
	p.Confusion = make([][]int, len(classes))
	for i := range p.Confusion {
		p.Confusion[i] = make([]int, len(classes))
	}
	scores := make([][]float64, 0, rows.n)
	truth := make([]int, 0, rows.n)
	// The rows' scores in one allocation, not one per row.
	flat := make([]float64, 0, rows.n*len(classes))
	haveScores := len(extra) == 0
	cols := scoreColumns(classes, scoreCol)
	for r := range rows.all() {
		t := index[r.YTrue]
		if r.YPred == "" {
			p.Unpredicted++
		} else {
			p.Confusion[t][index[r.YPred]]++
		}
		if !haveScores {
			continue
		}
		at := len(flat)
		flat = flat[:at+len(classes)]
		s := flat[at : at+len(classes) : at+len(classes)]
		for i, col := range cols {
			if col < 0 || r.Scores == nil || math.IsNaN(r.Scores[col]) {
				haveScores = false
				break
			}
			s[i] = r.Scores[col]
		}
		scores, truth = append(scores, s), append(truth, t)
	}
	if haveScores && len(scores) > 0 {
		if auc := MacroAUC(scores, truth, len(classes)); !math.IsNaN(auc) {
			p.AUC = &auc
		}
		ll := LogLoss(scores, truth)
		p.LogLoss = &ll
	}
	return p
}

// predictedClasses extends the model's class list with the labels of the
// rows it lacks (none, for a described model), appended in sorted order;
// index gives each class's position, extra the labels appended.
func predictedClasses(classes []string, rows *pooledRows) (all []string, index map[string]int, extra []string) {
	index = map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	for r := range rows.all() {
		for _, l := range []string{r.YTrue, r.YPred} {
			if _, ok := index[l]; !ok && l != "" {
				index[l] = -1
				extra = append(extra, l)
			}
		}
	}
	sort.Strings(extra)
	all = append(append([]string(nil), classes...), extra...)
	for i, c := range all {
		index[c] = i
	}
	return all, index, extra
}

// scoreColumns is each class's score column, looked up once (-1: none).
func scoreColumns(classes []string, scoreCol map[string]int) []int {
	cols := make([]int, len(classes))
	for i, c := range classes {
		if col, ok := scoreCol[c]; ok {
			cols[i] = col
		} else {
			cols[i] = -1
		}
	}
	return cols
}

func stability(k cellKey, rows []results.Record, models map[unitConfig]artifacts.ModelRecord) (Stability, bool) {
	s := Stability{Protocol: k.protocol, Dataset: k.dataset, Method: k.method}
	if len(rows) == 0 {
		return s, false
	}
	readable, recorded, ok := ruleUnits(rows, models)
	if !ok {
		return s, false // a method without rules text: nothing to compare
	}
	// rulesOf is what is compared and shown of a model: all its rules as
	// a reader reads them, or all as the learner printed them, never a mix.
	rulesOf := func(m artifacts.ModelRecord) []string {
		if readable {
			r, _ := m.Readable()
			return r
		}
		return m.Rules
	}
	sets, conds := ruleSets(rows, models, rulesOf)
	count, antecedents := make(map[string]int, len(sets[0])), map[string]int{}
	total := 0
	for i, r := range rows {
		for rule := range sets[i] {
			count[rule]++
		}
		for c := range conds[i] {
			antecedents[c]++
		}
		total += len(models[unitConfig{r.Key, r.ConfigIndex}].Rules)
	}
	s.Models = len(sets)
	s.MeanRules = float64(total) / float64(len(sets))
	s.Distinct = len(count)
	s.Jaccard = meanJaccard(sets)
	s.Recurring, s.RecurringAntecedents = recurring(count), recurring(antecedents)
	rep, _ := results.Representative(rows)
	m := models[unitConfig{rep.Key, rep.ConfigIndex}]
	rules := rulesOf(m)
	shown := rules[:min(len(rules), MaxRepresentativeRules)]
	s.Representative = RepresentativeModel{Key: rep.Key, Repeat: rep.Repeat, Fold: rep.Fold, Accuracy: rep.Accuracy,
		Config: rep.Config, Rules: shown, RulesOmitted: len(rules) - len(shown), Partitions: m.NamedPartitions()}
	if readable {
		s.Representative.Default = m.ReadableDefault
	}
	s.LearnerUnits, s.DataUnits = !readable, readable && recorded
	return s, true
}

// ruleUnits says in which units the cell's models' rules can be compared:
// readable when every model's rules read in the data's units, recorded
// when some model recorded its readable rules; not ok when a model has
// no rules text.
func ruleUnits(rows []results.Record, models map[unitConfig]artifacts.ModelRecord) (readable, recorded, ok bool) {
	readable = true
	for _, r := range rows {
		m, found := models[unitConfig{r.Key, r.ConfigIndex}]
		if !found || m.Rules == nil {
			return false, false, false
		}
		if _, learnerUnits := m.Readable(); learnerUnits {
			readable = false
		}
		recorded = recorded || len(m.ReadableRules) > 0
	}
	return readable, recorded, true
}

// ruleSets builds each model's rule set and conditions on their own (in
// parallel: a deep tree on large data has 10^5 rules per fold), in row
// order.
func ruleSets(rows []results.Record, models map[unitConfig]artifacts.ModelRecord, rulesOf func(artifacts.ModelRecord) []string) (sets, conds []map[string]bool) {
	sets = make([]map[string]bool, len(rows))
	conds = make([]map[string]bool, len(rows))
	eachIndex(len(rows), func(i int) {
		m := models[unitConfig{rows[i].Key, rows[i].ConfigIndex}]
		set := make(map[string]bool, len(m.Rules))
		for _, rule := range rulesOf(m) {
			set[RuleText(rule)] = true
		}
		cs := map[string]bool{}
		for rule := range set {
			eachAntecedent(rule, func(c string) { cs[c] = true })
		}
		sets[i], conds[i] = set, cs
	})
	return sets, conds
}

// meanJaccard is the mean Jaccard similarity over the pairs of rule sets
// (nil with fewer than two).
func meanJaccard(sets []map[string]bool) *float64 {
	if len(sets) < 2 {
		return nil
	}
	var sum float64
	n := 0
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			sum += jaccard(sets[i], sets[j])
			n++
		}
	}
	mean := sum / float64(n)
	return &mean
}

// eachIndex calls fn(i) for every i in [0, n) on up to GOMAXPROCS
// goroutines and returns when all have returned; fn must write only what
// belongs to i.
func eachIndex(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// jaccard is |a ∩ b| / |a ∪ b|; two empty sets are identical (1).
func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for r := range a {
		if b[r] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// recurring lists the entries counted in more than one model, most
// frequent first (ties by text).
func recurring(count map[string]int) []RuleCount {
	var out []RuleCount
	for rule, n := range count {
		if n > 1 {
			out = append(out, RuleCount{rule, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Models != b.Models {
			return a.Models > b.Models
		}
		return a.Rule < b.Rule
	})
	return out
}
