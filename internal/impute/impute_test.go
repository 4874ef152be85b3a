package impute

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

var nan = math.NaN()

func TestFitMeanAndMode(t *testing.T) {
	x := [][]float64{
		{1, 0, 5},
		{nan, 2, 5},
		{4, nan, 5},
		{7, 2, 5},
		{nan, 1, 5},
		{1, 1, 5},
	}
	m := New(x, []int{0, 3, 0}, []string{"a", "b", "c"})
	if m.Cells() != 3 {
		t.Fatalf("cells %d, want 3", m.Cells())
	}
	cases := []struct {
		name string
		rows [][]float64
		want []float64
	}{
		// Codes 1 and 2 tie twice each: the smaller wins; column c has no
		// missing cell and is not imputed.
		{"all rows", x, []float64{13.0 / 4, 1, nan}},
		{"first three", x[:3], []float64{2.5, 0, nan}},
		{"a column without a value", x[1:2], []float64{nan, 2, nan}},
	}
	for _, c := range cases {
		got := m.Fit(c.rows)
		if !sameFloats(got, c.want) {
			t.Errorf("%s: fill %v, want %v", c.name, got, c.want)
		}
	}
	dst := make([]float64, 3)
	Row(dst, x[1], m.Fit(x))
	if !reflect.DeepEqual(dst, []float64{13.0 / 4, 2, 5}) {
		t.Errorf("row imputed as %v", dst)
	}
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func TestCompleteRowsNeedNoImputer(t *testing.T) {
	m := New([][]float64{{1, 2}, {3, 4}}, []int{0, 0}, []string{"a", "b"})
	if m != nil || m.Fit(nil) != nil || m.Cells() != 0 || m.Check([]int{0}, nil) != nil {
		t.Fatal("a matrix without missing cells has an imputer that does something")
	}
}

func TestCheckNamesAColumnWithNothingToFit(t *testing.T) {
	x := [][]float64{{nan}, {1}, {nan}, {2}, {nan}}
	m := New(x, []int{0}, []string{"age"})
	cases := []struct {
		name         string
		train, inner []int
		want         string
	}{
		{"values in the training rows", []int{0, 1, 2}, nil, ""},
		{"no value in the training rows", []int{0, 2, 4}, nil, "column age has no value in the training rows"},
		// Rows 1 and 3, the only values, are both in inner fold 1.
		{"no value outside inner fold 1", []int{0, 1, 2, 3}, []int{0, 1, 0, 1}, "column age has no value in the training rows of inner fold 1"},
		{"values on both sides", []int{0, 1, 2, 3}, []int{0, 1, 1, 0}, ""},
	}
	for _, c := range cases {
		err := m.Check(c.train, c.inner)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
