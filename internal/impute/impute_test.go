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

// TestMeanIsSimpleImputers: the fill mean is scikit-learn 1.2.1's
// SimpleImputer().fit(X).statistics_ (numpy 1.24.2) for a column-major X,
// bit for bit. Each vector was chosen so that a running sum (what
// SimpleImputer gives for a row-major X), and a pairwise sum of the values
// without the missing cells' zeros, both round differently.
func TestMeanIsSimpleImputers(t *testing.T) {
	short := []float64{76.31, 779.92, nan, 723.47, 977.99, 538.5, 501.12, 72.05, 268.44, nan,
		679.23, 803.74, 380.94, nan, 288.15, 909.59, 213.39, 452.12, 931.21, 24.9}
	// 200 values (i*7919 mod 10007)/3, every fifth from the fourth missing:
	// long enough for numpy to split the pairwise blocks in halves.
	long := make([]float64, 200)
	for i := range long {
		long[i] = float64(i*7919%10007) / 3
		if i%5 == 3 {
			long[i] = nan
		}
	}
	cases := []struct {
		name    string
		col     []float64
		sklearn float64 // statistics_[0], column-major X
		running float64 // statistics_[0], row-major X: a plain running sum
	}{
		{"20 rows", short, 507.12176470588247, 507.12176470588236},
		{"200 rows", long, 1679.8291666666669, 1679.8291666666664},
	}
	for _, c := range cases {
		x := make([][]float64, len(c.col))
		for i, v := range c.col {
			x[i] = []float64{v, 1}
		}
		m := New(x, []int{0, 0}, []string{"v", "one"})
		got := m.Fit(x)[0]
		if got != c.sklearn {
			t.Errorf("%s: mean %v, SimpleImputer's %v (a running sum gives %v)", c.name, got, c.sklearn, c.running)
		}
		sum, n := 0.0, 0
		for _, v := range c.col {
			if !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if sum/float64(n) != c.running || c.running == c.sklearn {
			t.Errorf("%s: the vector no longer tells the summations apart (running mean %v)", c.name, sum/float64(n))
		}
	}
}
