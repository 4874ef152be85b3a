package paperprep

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
)

// synthetic builds an n-row dataset with a real column, an integer column
// and a nominal column whose declared domain order differs from first
// appearance. Rows listed in missing get a NaN in the real column.
func synthetic(n int, realIsInteger bool, missing ...int) *datasets.Dataset {
	d := &datasets.Dataset{
		Name: "synthetic",
		Inputs: []datasets.Attribute{
			{Name: "r", Type: "real", IntegerLiterals: realIsInteger},
			{Name: "i", Type: "integer", IntegerLiterals: true},
			{Name: "c", Type: "nominal", Domain: []string{"a", "b", "c"}},
		},
		Output:  datasets.Attribute{Name: "class", Type: "nominal", Domain: []string{"x", "y", "z"}},
		Classes: []string{"x", "y", "z"},
	}
	for i := 0; i < n; i++ {
		r := float64((i*37)%23) + 0.25
		if realIsInteger {
			r = math.Trunc(r)
		}
		row := []float64{r, float64((i * 11) % 7), float64(2 - i%3)} // first appearance: c, b, a
		d.X = append(d.X, row)
		d.Y = append(d.Y, (i*7)%3)
	}
	for _, i := range missing {
		d.X[i][0] = math.NaN()
	}
	return d
}

func TestPrepareDropsAndMapsRows(t *testing.T) {
	d := synthetic(60, false, 3, 17, 40)
	p, err := Prepare(d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Dropped, []int{3, 17, 40}) {
		t.Fatalf("Dropped = %v", p.Dropped)
	}
	if len(p.X) != 57 || p.NTrain+p.NVal+p.NTest != 57 {
		t.Fatalf("rows %d, sizes %d/%d/%d", len(p.X), p.NTrain, p.NVal, p.NTest)
	}
	// 57 rows: first split test = ceil(57/5) = 12, second = ceil(45/5) = 9.
	if p.NTest != 12 || p.NVal != 9 || p.NTrain != 36 {
		t.Fatalf("sizes %d/%d/%d, want 36/9/12", p.NTrain, p.NVal, p.NTest)
	}
	seen := map[int]bool{}
	for r, src := range p.SrcRow {
		if slices.Contains(p.Dropped, src) || seen[src] {
			t.Fatalf("stacked row %d has source %d (dropped or repeated)", r, src)
		}
		seen[src] = true
		if p.Y[r] != d.Y[src] {
			t.Fatalf("row %d: y %d, source y %d", r, p.Y[r], d.Y[src])
		}
		// Nominal column: first-appearance code of the source value
		// (declared 2 -> code 0, 1 -> 1, 0 -> 2), unscaled.
		if want := float64(2 - int(d.X[src][2])); p.X[r][2] != want {
			t.Fatalf("row %d: nominal code %v, want %v", r, p.X[r][2], want)
		}
		// Numeric column: the scaler's affine map of the source value.
		if want := (d.X[src][0] - p.Scaler.Mean[0]) / p.Scaler.Scale[0]; p.X[r][0] != want {
			t.Fatalf("row %d: scaled %v, want %v", r, p.X[r][0], want)
		}
	}
	if !slices.Equal(p.Schema.Features[2].Categories, []string{"c", "b", "a"}) {
		t.Fatalf("categories %v, want first-appearance order [c b a]", p.Schema.Features[2].Categories)
	}
	if !slices.Equal(p.Categorical, []bool{false, false, true}) || !slices.Equal(p.Scaler.Cols, []int{0, 1}) {
		t.Fatalf("categorical %v, scaled cols %v", p.Categorical, p.Scaler.Cols)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "dropped 3") {
		t.Fatalf("notes %v", p.Notes)
	}
}

// The scaler is fitted on the first NTrain stacked rows only: their numeric
// columns have mean ~0 and population variance ~1; the whole matrix does not.
func TestPrepareScalerFittedOnTrainPart(t *testing.T) {
	p, err := Prepare(synthetic(90, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []int{0, 1} {
		var s, q float64
		for _, row := range p.X[:p.NTrain] {
			s += row[j]
			q += row[j] * row[j]
		}
		n := float64(p.NTrain)
		if math.Abs(s/n) > 1e-12 || math.Abs(q/n-1) > 1e-12 {
			t.Fatalf("column %d: train mean %v, var %v", j, s/n, q/n)
		}
	}
	if p.Truncated {
		t.Fatal("a real column is present: no truncation expected")
	}
}

func TestPrepareIntegerTruncation(t *testing.T) {
	tests := []struct {
		name     string
		integer  bool
		truncate bool
		want     bool
	}{
		{"all integer, paper", true, true, true},
		{"all integer, clean", true, false, false},
		{"a real column", false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := PaperOptions()
			o.Truncate = tc.truncate
			p, err := PrepareWith(synthetic(50, tc.integer), o)
			if err != nil {
				t.Fatal(err)
			}
			if p.Truncated != tc.want {
				t.Fatalf("Truncated = %v, want %v", p.Truncated, tc.want)
			}
			allInts := true
			for _, row := range p.X {
				for _, v := range row {
					if v != math.Trunc(v) || math.Signbit(v) && v == 0 {
						allInts = false
					}
				}
			}
			if allInts != tc.want {
				t.Fatalf("matrix all integers (no -0) = %v, want %v", allInts, tc.want)
			}
		})
	}
}

func TestIntegerMatrix(t *testing.T) {
	nom := datasets.Attribute{Type: "nominal"}
	intCol := datasets.Attribute{Type: "integer", IntegerLiterals: true}
	realInts := datasets.Attribute{Type: "real", IntegerLiterals: true}
	realCol := datasets.Attribute{Type: "real"}
	tests := []struct {
		name   string
		inputs []datasets.Attribute
		want   bool
	}{
		{"nominal only", []datasets.Attribute{nom, nom}, true},
		{"integers and nominal", []datasets.Attribute{intCol, nom, realInts}, true},
		{"one float column", []datasets.Attribute{intCol, realCol}, false},
		{"no inputs", nil, false},
	}
	for _, tc := range tests {
		if got := IntegerMatrix(tc.inputs); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPrepareDeterministic(t *testing.T) {
	a, err := Prepare(synthetic(75, false, 5))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Prepare(synthetic(75, false, 5))
	if matrixHash(a.X) != matrixHash(b.X) || !slices.Equal(a.Fold, b.Fold) || !slices.Equal(a.SrcRow, b.SrcRow) {
		t.Fatal("two runs differ")
	}
}

func TestPrepareErrors(t *testing.T) {
	oneMember := synthetic(30, false)
	oneMember.Y[4] = 2
	for i := range oneMember.Y {
		if i != 4 {
			oneMember.Y[i] = i % 2
		}
	}
	allMissing := synthetic(10, false, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	ragged := synthetic(10, false)
	ragged.X[3] = ragged.X[3][:2]
	badOpts := PaperOptions()
	badOpts.K = 1
	tests := []struct {
		name string
		d    *datasets.Dataset
		o    Options
		msg  string
	}{
		{"nil dataset", nil, PaperOptions(), "nil dataset"},
		{"all rows incomplete", allMissing, PaperOptions(), "no row without missing"},
		{"class with one member", oneMember, PaperOptions(), "only 1 member"},
		{"ragged rows", ragged, PaperOptions(), "values"},
		{"invalid options", synthetic(20, false), badOpts, "invalid options"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PrepareWith(tc.d, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.msg)
			}
		})
	}
}

func BenchmarkPrepareSynthetic5000(b *testing.B) {
	d := synthetic(5000, false)
	for b.Loop() {
		if _, err := Prepare(d); err != nil {
			b.Fatal(err)
		}
	}
}
