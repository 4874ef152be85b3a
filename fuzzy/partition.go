package fuzzy

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/internal/par"
)

// Category is a crisp set: membership 1 for exactly one category code.
type Category struct {
	Value float64
}

// Membership is 1 when x equals the category code and 0 otherwise.
func (c Category) Membership(x float64) float64 {
	if x == c.Value {
		return 1
	}
	return 0
}

// Term is one named fuzzy set of a linguistic variable: either a trapezoid
// (numeric features) or a crisp category (nominal features).
type Term struct {
	Name string
	// Crisp selects Category instead of Shape.
	Crisp    bool
	Category Category
	Shape    Trapezoid
}

// Membership evaluates the term at x.
func (t Term) Membership(x float64) float64 {
	if t.Crisp {
		return t.Category.Membership(x)
	}
	return t.Shape.Membership(x)
}

// MembershipInto writes the term's membership of every xs[i] to dst[i] and
// reports whether every value it wrote is finite (a crisp term's always
// are).
func (t Term) MembershipInto(dst, xs []float64) (finite bool) {
	if t.Crisp {
		for i, x := range xs {
			dst[i] = t.Category.Membership(x)
		}
		return true
	}
	return t.Shape.MembershipInto(dst, xs)
}

// Numeric term names, in term-index order (0 = Low, 1 = Medium, 2 = High).
var NumericTermNames = [3]string{"Low", "Medium", "High"}

// Partition is the linguistic variable of one feature: an ordered list of
// named terms. Numeric features have three trapezoids (Low, Medium, High);
// nominal features have one crisp term per distinct value, ascending.
// Min and Max are the range of the (non-missing) values the partition was
// fitted on; they are used to clamp out-of-range inputs when asked to.
type Partition struct {
	Nominal  bool
	Terms    []Term
	Min, Max float64
}

// NumTerms returns the number of terms.
func (p Partition) NumTerms() int { return len(p.Terms) }

// TermIndex finds a term by name; unknown names are an error.
func (p Partition) TermIndex(name string) (int, error) {
	for i, t := range p.Terms {
		if t.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(p.Terms))
	for i, t := range p.Terms {
		names[i] = t.Name
	}
	return -1, fmt.Errorf("fuzzy: unknown term %q (terms: %s)", name, strings.Join(names, ", "))
}

// Membership evaluates term t at x. A missing value (NaN) has membership 1
// in every term, as the reference predict treats unobserved features.
func (p Partition) Membership(t int, x float64) float64 {
	if math.IsNaN(x) {
		return 1
	}
	return p.Terms[t].Membership(x)
}

// Clamp moves x into [Min, Max] for numeric partitions; NaN and nominal
// values are returned unchanged.
func (p Partition) Clamp(x float64) float64 {
	if p.Nominal || math.IsNaN(x) {
		return x
	}
	if x < p.Min {
		return p.Min
	}
	if x > p.Max {
		return p.Max
	}
	return x
}

// Style selects how numeric partitions are built from quantiles.
type Style int

const (
	// QuantileStyle is what the authors' experiments run (ex-fuzzy
	// construct_partitions): percentiles 0/20/40/60/80/100,
	// Low (q0-eps, q0-eps, q20, q40), Medium (q20, q40, q60, q80),
	// High (q60, q80, q100+eps, q100+eps).
	QuantileStyle Style = iota
	// PaperStyle is the shape the paper's text describes, with the five
	// quantile points Q0..Q4 taken at percentiles 0/25/50/75/100 (the
	// quantile-space search of partition_optimization.py starts from
	// [0, Q1, Q2, Q3, 100]; the paper does not say which percentiles, this
	// is our choice): Low (Q0, Q0, Q1, Q2), Medium (Q1, (Q1+Q2)/2,
	// (Q2+Q3)/2, Q3), High (Q2, Q3, Q4, Q4).
	PaperStyle
)

// ParseStyle maps "quantile" and "paper" to a Style.
func ParseStyle(s string) (Style, error) {
	switch s {
	case "quantile", "":
		return QuantileStyle, nil
	case "paper":
		return PaperStyle, nil
	}
	return 0, fmt.Errorf("fuzzy: unknown partition style %q (quantile, paper)", s)
}

// UnmarshalText parses a style as ParseStyle does, so that a learner's
// configuration decodes it (learn.Decode).
func (s *Style) UnmarshalText(b []byte) error {
	v, err := ParseStyle(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

func (s Style) String() string {
	if s == PaperStyle {
		return "paper"
	}
	return "quantile"
}

// Percentile returns numpy's default ('linear') percentile p in [0, 100] of
// sorted (ascending, no NaN, non-empty; only the two order statistics of
// percentileRanks need to be in place), including numpy's two-branch
// linear interpolation (_lerp), which decides the last bit.
func Percentile(sorted []float64, p float64) float64 {
	return percentileFrom(len(sorted), p, func(r int) float64 { return sorted[r] })
}

// percentileFrom is Percentile of n values given by their order
// statistics: at(r) is the r-th smallest.
func percentileFrom(n int, p float64, at func(r int) float64) float64 {
	vi := float64(float64(n-1) * (p / 100.0))
	lo := math.Floor(vi)
	loI, hiI := percentileRanks(n, p)
	g := vi - lo
	a, b := at(loI), at(hiI)
	d := b - a
	if g >= 0.5 {
		return b - float64(d*(1-g))
	}
	return a + float64(d*g)
}

// ErrNoValues is returned when a column has no non-missing value.
var ErrNoValues = errors.New("fuzzy: column has no non-missing values")

// appendFinite appends the non-NaN values of col to dst.
func appendFinite(dst, col []float64) []float64 {
	for _, v := range col {
		if !math.IsNaN(v) {
			dst = append(dst, v)
		}
	}
	return dst
}

// NumericPartition builds the Low/Medium/High partition of one numeric
// column. Missing values (NaN) are ignored, as numpy.nanpercentile does; a
// column with no value at all is an error. Infinite values are an error.
func NumericPartition(col []float64, style Style) (Partition, error) {
	return numericPartition(appendFinite(make([]float64, 0, len(col)), col), style)
}

// numericPartition is NumericPartition on the column's non-NaN values,
// which it uses as scratch space.
func numericPartition(s []float64, style Style) (Partition, error) {
	if len(s) == 0 {
		return Partition{}, ErrNoValues
	}
	var ps []float64
	switch style {
	case QuantileStyle:
		var at [6]float64
		ps = quantilePoints(at[:])
	case PaperStyle:
		ps = []float64{0, 25, 50, 75, 100}
	default:
		return Partition{}, fmt.Errorf("fuzzy: unknown partition style %d", style)
	}
	o := selectPercentiles(s, ps...)
	lo, hi := o.at(0), o.at(len(s)-1)
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return Partition{}, errors.New("fuzzy: column has infinite values")
	}
	q := make([]float64, len(ps))
	for i, p := range ps {
		q[i] = o.percentile(p)
	}
	var sets [3]Trapezoid
	if style == QuantileStyle {
		quantileSets(sets[:], q)
	} else {
		sets[0] = Trapezoid{q[0], q[0], q[1], q[2]}
		sets[1] = Trapezoid{q[1], (q[1] + q[2]) / 2, (q[2] + q[3]) / 2, q[3]}
		sets[2] = Trapezoid{q[2], q[3], q[4], q[4]}
	}
	return NumericFromSets(sets, lo, hi), nil
}

// QuantileTrapezoids is ex-fuzzy's t1_n_partition_parameters for one
// sorted column (no NaN): the numpy percentiles at linspace(0, 100, 2L)
// points q_0..q_{2L-1}; the first label is (q_0-ε, q_0-ε, q_1, q_2), label
// k of the middle ones (q_{2k-1}, q_{2k}, q_{2k+1}, q_{2k+2}), the last
// (q_{2L-3}, q_{2L-2}, q_{2L-1}+ε, q_{2L-1}+ε), with ε = Eps. For three
// labels these are the sets of QuantileStyle.
func QuantileTrapezoids(sorted []float64, labels int) []Trapezoid {
	q := quantilePoints(make([]float64, 2*labels))
	for i, p := range q {
		q[i] = Percentile(sorted, p)
	}
	sets := make([]Trapezoid, labels)
	quantileSets(sets, q)
	return sets
}

// quantilePoints fills ps with np.linspace(0, 100, len(ps)), the
// percentiles of QuantileTrapezoids for len(ps)/2 labels, and returns it.
func quantilePoints(ps []float64) []float64 {
	nq := len(ps)
	step := 100.0 / float64(nq-1)
	for i := range ps {
		ps[i] = float64(i) * step
	}
	ps[nq-1] = 100 // np.linspace ends exactly at stop
	return ps
}

// quantileSets writes QuantileTrapezoids' labels, one per element of sets,
// from the percentiles q at quantilePoints (len(q) = 2·len(sets)).
func quantileSets(sets []Trapezoid, q []float64) {
	nq, labels := len(q), len(sets)
	for k := range sets {
		switch {
		case k == 0:
			sets[k] = Trapezoid{A: q[0] - Eps, B: q[0] - Eps, C: q[1], D: q[2]}
		case k == labels-1:
			sets[k] = Trapezoid{A: q[nq-3], B: q[nq-2], C: q[nq-1] + Eps, D: q[nq-1] + Eps}
		default:
			o := 2*k - 1
			sets[k] = Trapezoid{A: q[o], B: q[o+1], C: q[o+2], D: q[o+3]}
		}
	}
}

// NumericFromSets wraps three trapezoids as a Low/Medium/High partition
// fitted on the range [lo, hi].
func NumericFromSets(sets [3]Trapezoid, lo, hi float64) Partition {
	p := Partition{Terms: make([]Term, 3), Min: lo, Max: hi}
	for i := range sets {
		p.Terms[i] = Term{Name: NumericTermNames[i], Shape: sets[i]}
	}
	return p
}

// Trapezoids returns the three shapes of a numeric partition.
func (p Partition) Trapezoids() ([3]Trapezoid, error) {
	var out [3]Trapezoid
	if p.Nominal || len(p.Terms) != 3 {
		return out, errors.New("fuzzy: not a three-term numeric partition")
	}
	for i, t := range p.Terms {
		out[i] = t.Shape
	}
	return out, nil
}

// categoricalPartition builds one crisp term per distinct value of s (a
// column's non-NaN values, which it sorts), in ascending value order. Term
// names are the codes themselves; callers with category labels may rename
// them.
func categoricalPartition(s []float64) (Partition, error) {
	sort.Float64s(s)
	if len(s) == 0 {
		return Partition{}, ErrNoValues
	}
	p := Partition{Nominal: true, Min: s[0], Max: s[len(s)-1]}
	for i, v := range s {
		if i > 0 && v == s[i-1] {
			continue
		}
		p.Terms = append(p.Terms, Term{
			Name:     strconv.FormatFloat(v, 'g', -1, 64),
			Crisp:    true,
			Category: Category{Value: v},
		})
	}
	return p, nil
}

// FitColumn builds the partition of one column, crisp categorical when
// nominal, numeric of the given style otherwise, from the column's values
// in any order (NaN ignored). It uses vals as scratch space (their contents
// are lost) and keeps no reference.
func FitColumn(vals []float64, nominal bool, style Style) (Partition, error) {
	s := vals[:0]
	for _, v := range vals {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	if nominal {
		return categoricalPartition(s)
	}
	return numericPartition(s, style)
}

// FitPartitions builds one partition per column of the row-major matrix X:
// crisp categorical partitions for the columns flagged in nominal, numeric
// partitions of the given style for the others.
func FitPartitions(X [][]float64, nominal []bool, style Style) ([]Partition, error) {
	return FitPartitionsEach(X, nominal, style, func(n int, body func(j int)) {
		for j := 0; j < n; j++ {
			body(j)
		}
	})
}

// FitPartitionsEach is FitPartitions with the columns fitted by each,
// which calls body(j) once for every column j in [0, n) in any order or at
// once (a parallel loop); a column buffer is made per body at work at
// once, and the error reported is the first column's, so the result is
// FitPartitions'.
func FitPartitionsEach(X [][]float64, nominal []bool, style Style, each func(n int, body func(j int))) ([]Partition, error) {
	if len(X) == 0 {
		return nil, errors.New("fuzzy: no rows to fit partitions on")
	}
	d := len(nominal)
	for i, row := range X {
		if len(row) != d {
			return nil, fmt.Errorf("fuzzy: row %d has %d columns, want %d", i, len(row), d)
		}
	}
	parts := make([]Partition, d)
	errs := make([]error, d)
	cols := par.NewPool(func() []float64 { return make([]float64, len(X)) })
	each(d, func(j int) {
		col := cols.Get()
		defer cols.Put(col)
		for i, row := range X {
			col[i] = row[j]
		}
		parts[j], errs[j] = FitColumn(col, nominal[j], style)
	})
	for j, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("column %d: %w", j, err)
		}
	}
	return parts, nil
}

// Describe prints the partitions, one line per term with its corners (or
// its category code), using names[j] as the feature name when given.
func Describe(parts []Partition, names []string) string {
	var b strings.Builder
	for j, p := range parts {
		name := fmt.Sprintf("x%d", j)
		if j < len(names) && names[j] != "" {
			name = names[j]
		}
		kind := "numeric"
		if p.Nominal {
			kind = "nominal"
		}
		fmt.Fprintf(&b, "%s (%s, range [%g, %g])\n", name, kind, p.Min, p.Max)
		for _, t := range p.Terms {
			if t.Crisp {
				fmt.Fprintf(&b, "  %-8s = %g\n", t.Name, t.Category.Value)
			} else {
				fmt.Fprintf(&b, "  %-8s [%.6g, %.6g, %.6g, %.6g]\n", t.Name, t.Shape.A, t.Shape.B, t.Shape.C, t.Shape.D)
			}
		}
	}
	return b.String()
}
