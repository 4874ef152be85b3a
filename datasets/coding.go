package datasets

import "math"

// Coding maps the nominal codes of a Dataset (declared-domain order) to the
// codes a protocol's learners see, fitted on training rows only, so that no
// test row decides a code (docs/protocols.md#nominal-coding).
//
// A category the fitting rows never hold takes one code after theirs, the
// same for every such category: Unseen(j), the number of categories the
// rows coded. A test row's code then depends on the training rows and its
// own value alone.
type Coding struct {
	// code[j][raw] is the code of raw code raw of column j (nil for a
	// column left as it is).
	code [][]float64
	// labels[j] names column j's codes in order (nil for a numeric column).
	labels [][]string
}

// FitCoding codes every nominal column by first appearance among rows
// (indices into X, in the order given), as pandas.factorize does on those
// rows alone. With keepDeclared, a declared category keeps its
// declared-domain code and only the values the header did not declare
// (Attribute.Appended) are coded by first appearance, after the declared
// ones; FitCoding then returns nil when no column has such a value, as the
// codes would not change.
func (d *Dataset) FitCoding(rows []int, keepDeclared bool) *Coding {
	c := &Coding{code: make([][]float64, len(d.Inputs)), labels: make([][]string, len(d.Inputs))}
	recoded := false
	for j, a := range d.Inputs {
		if !a.Nominal() {
			continue
		}
		fixed := 0 // codes kept as they are
		if keepDeclared {
			fixed = len(a.Domain) - a.Appended
			if a.Appended == 0 {
				c.labels[j] = append([]string(nil), a.Domain...)
				continue
			}
		}
		recoded = true
		code := make([]float64, len(a.Domain))
		for k := range code {
			code[k] = -1
		}
		labels := append([]string(nil), a.Domain[:fixed]...)
		for k := range fixed {
			code[k] = float64(k)
		}
		for _, r := range rows {
			v := d.X[r][j]
			if math.IsNaN(v) {
				continue
			}
			if k := int(v); code[k] < 0 {
				code[k] = float64(len(labels))
				labels = append(labels, a.Domain[k])
			}
		}
		for k := range code {
			if code[k] < 0 {
				code[k] = float64(len(labels)) // unseen: one code after the rows' codes
			}
		}
		c.code[j], c.labels[j] = code, labels
	}
	if keepDeclared && !recoded {
		return nil
	}
	return c
}

// Apply writes src recoded into dst (they may be the same row): a nominal
// cell takes its column's code, a missing cell stays NaN and numeric cells
// are copied. A nil Coding copies.
func (c *Coding) Apply(dst, src []float64) {
	copy(dst, src)
	if c == nil {
		return
	}
	for j, code := range c.code {
		if code != nil && j < len(src) && !math.IsNaN(src[j]) {
			dst[j] = code[int(src[j])]
		}
	}
}

// Labels returns the category names of nominal column j in code order
// (nil for a numeric column): the categories of the fitting rows, which
// learners' schemas list. A nil Coding has none.
func (c *Coding) Labels(j int) []string {
	if c == nil || j >= len(c.labels) {
		return nil
	}
	return c.labels[j]
}

// Unseen is the code of column j that the categories absent from the
// fitting rows share.
func (c *Coding) Unseen(j int) int { return len(c.Labels(j)) }
