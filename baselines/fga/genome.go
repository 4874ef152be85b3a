package fga

import (
	"cmp"
	"math"
	"slices"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// mfGeneMax is the upper bound of every membership gene (ex-fuzzy's
// feature_domain_bounds [0, 99]).
const mfGeneMax = 99

// problem holds everything a fit precomputes once: the training columns in
// feature-major order, the labels recoded to the classes present, the
// per-feature ranges and the chromosome layout.
type problem struct {
	n, nFeat int
	cols     []float64 // cols[f*n+i] = X[i][f]
	sorted   []float64 // sorted[f*n+k] = k-th smallest value of feature f
	order    []int32   // order[f*n+k] = row holding sorted[f*n+k]
	y        []int32   // class among the present ones, 0..nClasses-1
	classEnd []int     // rows of present class k are [classEnd[k-1], classEnd[k])
	nClasses int       // classes present in y (ex-fuzzy's len(unique(y)))
	classOf  []int     // present class -> schema class index
	xmin     []float64
	xmax     []float64
	lay      layout
	tol      float64
	headEps  bool // Config.HeadTrapezoid
	// fixed holds the partitions of a fit with fixed partitions (nil when
	// they are evolved); mem[(f*L+l)*n+i] is then the membership of row i
	// in label l of feature f, computed once.
	fixed *fixedPartitions
	mem   []float64
}

// layout is the gene layout of a chromosome
// (docs/fidelity.md#fga-chromosome).
type layout struct {
	rules, ants, labels, nFeat, nClasses int
	mfPerFeat                            int // (labels-1)*4 + 3, or 0 with fixed partitions
	labelOff, mfOff, consOff, nVar       int
	xl, xu                               []int32
}

func newLayout(rules, ants, labels, nFeat, nClasses int, fixed bool) layout {
	l := layout{rules: rules, ants: ants, labels: labels, nFeat: nFeat, nClasses: nClasses}
	if !fixed {
		l.mfPerFeat = (labels-1)*4 + 3
	}
	l.labelOff = rules * ants
	l.mfOff = 2 * rules * ants
	l.consOff = l.mfOff + nFeat*l.mfPerFeat
	l.nVar = l.consOff + rules
	l.xl = make([]int32, l.nVar)
	l.xu = make([]int32, l.nVar)
	for g := 0; g < l.labelOff; g++ {
		l.xl[g], l.xu[g] = 0, int32(nFeat-1)
	}
	for g := l.labelOff; g < l.mfOff; g++ {
		l.xl[g], l.xu[g] = -1, int32(labels-1)
	}
	for g := l.mfOff; g < l.consOff; g++ {
		l.xl[g], l.xu[g] = 0, mfGeneMax
	}
	for g := l.consOff; g < l.nVar; g++ {
		l.xl[g], l.xu[g] = -1, int32(nClasses-1)
	}
	return l
}

// mfGenes returns the membership genes of feature f.
func (l *layout) mfGenes(genes []int32, f int) []int32 {
	o := l.mfOff + f*l.mfPerFeat
	return genes[o : o+l.mfPerFeat]
}

// newProblem precomputes a fit's data; fixed is nil for evolved partitions. Rows are stored grouped by class
// (stably), so the per-class sums of a rule's firing strengths are sums over
// contiguous ranges; nothing else depends on the row order.
func newProblem(X [][]float64, y []int, nSchemaClasses int, o Config, loops *spreader, fixed *fixedPartitions) *problem {
	n, d := len(X), len(X[0])
	p := &problem{n: n, nFeat: d, cols: make([]float64, n*d), y: make([]int32, n),
		xmin: make([]float64, d), xmax: make([]float64, d), tol: o.Tolerance, headEps: o.HeadTrapezoid,
		sorted: make([]float64, n*d), order: make([]int32, n*d)}
	present := p.indexClasses(y, nSchemaClasses)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	slices.SortStableFunc(rows, func(a, b int) int { return cmp.Compare(y[a], y[b]) })
	p.classEnd = make([]int, p.nClasses)
	for i, r := range rows {
		k := present[y[r]]
		p.y[i] = int32(k)
		p.classEnd[k] = i + 1
	}
	loops.run(d, func(_, f int) { p.loadColumn(X, rows, f) })
	ants := min(o.Antecedents, d) // ex-fuzzy caps nAnts at the number of features
	p.lay = newLayout(o.Rules, ants, o.Labels, d, max(p.nClasses, 1), fixed != nil)
	if fixed != nil {
		p.fixed = fixed
		p.memberships(fixed)
	}
	return p
}

// indexClasses numbers the classes present in y in class order (classOf
// maps the numbers back) and returns, per schema class, its number or -1.
func (p *problem) indexClasses(y []int, nSchemaClasses int) []int {
	present := make([]int, nSchemaClasses)
	for i := range present {
		present[i] = -1
	}
	for _, c := range y {
		present[c] = 0
	}
	for c := range present {
		if present[c] == 0 {
			present[c] = len(p.classOf)
			p.classOf = append(p.classOf, c)
		}
	}
	p.nClasses = len(p.classOf)
	return present
}

// loadColumn copies feature f of X in the order of rows, with its range,
// its stable sort order and its sorted values; it writes only f's slots.
func (p *problem) loadColumn(X [][]float64, rows []int, f int) {
	n := p.n
	col := p.cols[f*n : (f+1)*n]
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, r := range rows {
		v := X[r][f]
		col[i] = v
		lo = math.Min(lo, v)
		hi = math.Max(hi, v)
	}
	p.xmin[f], p.xmax[f] = lo, hi
	ord := p.order[f*n : (f+1)*n]
	for i := range ord {
		ord[i] = int32(i)
	}
	slices.SortStableFunc(ord, func(a, b int32) int { return cmp.Compare(col[a], col[b]) })
	for k, r := range ord {
		p.sorted[f*n+k] = col[r]
	}
}

// antecedent is one condition "feature IS label".
type antecedent struct {
	feat, label int
}

// ruleSpec is a decoded rule: its antecedents in ascending feature order,
// its class (among the present classes) and the cache key of its firing
// strengths (antecedents plus the membership genes of their features).
type ruleSpec struct {
	ants  []antecedent
	class int
	key   string
}

// decodeRules builds the rule base of a chromosome as ex-fuzzy's
// _construct_ruleBase does: later slots on the same feature overwrite
// earlier ones, rules with consequent -1 or no antecedent are dropped, rules
// are grouped by class in gene order and exact duplicates within a class are
// dropped (first kept).
func decodeRules(l *layout, genes []int32) []ruleSpec {
	perClass := make([][]ruleSpec, l.nClasses)
	slots := make([]antecedent, 0, l.ants)
	for r := 0; r < l.rules; r++ {
		cons := int(genes[l.consOff+r])
		slots = slots[:0]
		for j := 0; j < l.ants; j++ {
			f := int(genes[r*l.ants+j])
			lab := min(int(genes[l.labelOff+r*l.ants+j]), l.labels-1)
			replaced := false
			for k := range slots {
				if slots[k].feat == f {
					slots[k].label = lab
					replaced = true
				}
			}
			if !replaced {
				slots = append(slots, antecedent{f, lab})
			}
		}
		var ants []antecedent
		for _, a := range slots {
			if a.label >= 0 {
				ants = append(ants, a)
			}
		}
		if cons < 0 || len(ants) == 0 {
			continue
		}
		slices.SortFunc(ants, func(a, b antecedent) int { return a.feat - b.feat })
		key := ruleKey(l, genes, ants)
		dup := false
		for _, q := range perClass[cons] {
			if q.key == key {
				dup = true
				break
			}
		}
		if !dup {
			perClass[cons] = append(perClass[cons], ruleSpec{ants: ants, class: cons, key: key})
		}
	}
	var out []ruleSpec
	for _, rs := range perClass {
		out = append(out, rs...)
	}
	return out
}

// ruleKey identifies a rule's firing strengths: they depend only on its
// antecedents and on the membership genes of the features it reads.
func ruleKey(l *layout, genes []int32, ants []antecedent) string {
	b := make([]byte, 0, len(ants)*(3+l.mfPerFeat))
	for _, a := range ants {
		b = append(b, byte(a.feat>>8), byte(a.feat), byte(a.label))
		for _, g := range l.mfGenes(genes, a.feat) {
			b = append(b, byte(g))
		}
	}
	return string(b)
}

// decodePartition turns the membership genes of one feature into its L
// trapezoids, rescaled to [xmin, xmax]
// (docs/fidelity.md#fga-membership-decoding). ok is false when
// the decoded parameters span no width (every gene but the first is 0):
// ex-fuzzy then divides 0 by 0, and such a partition has no membership.
// headEps selects Config.HeadTrapezoid.
func decodePartition(genes []int32, labels int, xmin, xmax float64, headEps bool) (sets []fuzzy.Trapezoid, ok bool) {
	raw := make([]float64, 0, 4*labels)
	p := 0
	var nextA, prevD float64
	for lx := 0; lx < labels; lx++ {
		var a, b, c, d float64
		switch {
		case lx == 0:
			a = float64(genes[0])
			b = a
			c = b + float64(genes[1])
			nextA = c + float64(genes[2])
			d = nextA + float64(genes[3])
			p = 4
		case lx == labels-1:
			a = nextA
			b = prevD + float64(genes[p])
			c = b + float64(genes[p+1])
			d = c
			p += 3 // the third gene of the last label is allocated but never read
		default:
			a = nextA
			b = prevD + float64(genes[p])
			c = b + float64(genes[p+1])
			nextA = c + float64(genes[p+2])
			d = nextA + float64(genes[p+3])
			p += 4
		}
		prevD = d
		raw = append(raw, a, b, c, d)
	}
	lo, hi := slices.Min(raw), slices.Max(raw)
	if hi == lo {
		return nil, false
	}
	width := xmax - xmin
	for i, v := range raw {
		raw[i] = float64((v-lo)/(hi-lo)*width) + xmin
	}
	sets = make([]fuzzy.Trapezoid, labels)
	for lx := range sets {
		t := fuzzy.Trapezoid{A: raw[4*lx], B: raw[4*lx+1], C: raw[4*lx+2], D: raw[4*lx+3]}
		if headEps && t.A == t.B && t.A != t.D {
			// ex-fuzzy >= 2026-06 shifts A left; with A != B the shared
			// Membership then leaves the shoulder alone and evaluates the
			// same quotients as that version.
			t.A -= fuzzy.Eps
		}
		sets[lx] = t
	}
	return sets, true
}
