package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestFitCoding: codes by first appearance among the fitting rows (in the
// order given), declared categories kept when asked, one shared code after
// the rows' codes for every category the rows never hold, missing cells
// and numeric columns untouched.
func TestFitCoding(t *testing.T) {
	nan := math.NaN()
	// colour declares {red, green}; blue and violet were met in the data.
	d := &Dataset{Inputs: []Attribute{
		{Name: "x", Type: "real"},
		{Name: "colour", Type: "nominal", Domain: []string{"red", "green", "blue", "violet"}, Appended: 2},
	}}
	d.X = [][]float64{{1.5, 1}, {2.5, 3}, {3.5, nan}, {4.5, 2}, {5.5, 0}}
	cases := []struct {
		name         string
		rows         []int
		keepDeclared bool
		labels       []string
		codes        []float64 // colour of rows 0..4 recoded
	}{
		{"all rows", []int{0, 1, 2, 3, 4}, false, []string{"green", "violet", "blue", "red"}, []float64{0, 1, nan, 2, 3}},
		{"rows in another order", []int{4, 3}, false, []string{"red", "blue"}, []float64{2, 2, nan, 1, 0}},
		{"declared kept", []int{3, 1, 2}, true, []string{"red", "green", "blue", "violet"}, []float64{1, 3, nan, 2, 0}},
		{"declared kept, violet unseen", []int{4, 3, 0}, true, []string{"red", "green", "blue"}, []float64{1, 3, nan, 2, 0}},
	}
	for _, c := range cases {
		coding := d.FitCoding(c.rows, c.keepDeclared)
		if got := coding.Labels(1); !slices.Equal(got, c.labels) || coding.Labels(0) != nil {
			t.Errorf("%s: labels %v, want %v", c.name, got, c.labels)
		}
		for i, row := range d.X {
			dst := make([]float64, 2)
			coding.Apply(dst, row)
			if dst[0] != row[0] || !(dst[1] == c.codes[i] || math.IsNaN(dst[1]) && math.IsNaN(c.codes[i])) {
				t.Errorf("%s: row %d coded %v, want colour %v", c.name, i, dst, c.codes[i])
			}
		}
		if coding.Unseen(1) != len(c.labels) {
			t.Errorf("%s: unseen code %d", c.name, coding.Unseen(1))
		}
	}
	// On every row in file order it is pandas.factorize, FirstAppearanceCodes.
	all := d.FitCoding([]int{0, 1, 2, 3, 4}, false)
	codes, labels := d.FirstAppearanceCodes()
	for i, row := range d.X {
		dst := make([]float64, 2)
		all.Apply(dst, row)
		if !slices.EqualFunc(dst, codes[i], func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("row %d: %v, FirstAppearanceCodes %v", i, dst, codes[i])
		}
	}
	if !slices.Equal(all.Labels(1), labels[1]) {
		t.Errorf("labels %v, FirstAppearanceCodes %v", all.Labels(1), labels[1])
	}
	// Nothing undeclared: the declared codes are the codes, no recoding.
	d.Inputs[1].Domain, d.Inputs[1].Appended = []string{"red", "green", "blue", "violet"}, 0
	if c := d.FitCoding([]int{1}, true); c != nil {
		t.Errorf("a fully declared domain is recoded: %v", c.Labels(1))
	}
}

// TestReadersCountAppendedCategories: Attribute.Appended counts the
// categories a header did not declare (every one of a CSV column).
func TestReadersCountAppendedCategories(t *testing.T) {
	keel := "@relation r\n@attribute c {a, b}\n@attribute y {p, q}\n@inputs c\n@outputs y\n@data\nb, p\nz, q\na, q\nw, p\n"
	d, err := ReadKEEL(strings.NewReader(keel), "r", "")
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Inputs[0]; a.Appended != 2 || !slices.Equal(a.Domain, []string{"a", "b", "z", "w"}) {
		t.Errorf("KEEL: domain %v, %d appended; want [a b z w], 2", a.Domain, a.Appended)
	}
	d, err = ReadCSV(strings.NewReader("c,y\nb,p\nz,q\nb,q\n"), "r", "", "y")
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Inputs[0]; a.Appended != 2 {
		t.Errorf("CSV: domain %v, %d appended; want 2", a.Domain, a.Appended)
	}
}
