package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// randomTable is a dataset in text form: per column either numbers or
// category words, "" for a missing cell, plus one class label per row.
type randomTable struct {
	names   []string
	nominal []bool
	domains [][]string
	cells   [][]string
	labels  []string
	classes []string
}

func newRandomTable(r *rand.Rand) randomTable {
	var t randomTable
	nCols, nRows := 1+r.IntN(6), 1+r.IntN(30)
	t.classes = []string{"neg", "pos", "mid"}[:2+r.IntN(2)]
	for j := 0; j < nCols; j++ {
		t.names = append(t.names, fmt.Sprintf("F%d", j))
		nom := r.IntN(3) == 0
		t.nominal = append(t.nominal, nom)
		var dom []string
		if nom {
			for k := 0; k < 1+r.IntN(4); k++ {
				dom = append(dom, fmt.Sprintf("v%c", 'a'+k))
			}
		}
		t.domains = append(t.domains, dom)
	}
	intCol := make([]bool, nCols)
	for j := range intCol {
		intCol[j] = r.IntN(2) == 0
	}
	for i := 0; i < nRows; i++ {
		row := make([]string, nCols)
		for j := range row {
			switch {
			case r.IntN(10) == 0:
				row[j] = ""
			case t.nominal[j]:
				row[j] = t.domains[j][r.IntN(len(t.domains[j]))]
			case intCol[j]:
				row[j] = strconv.Itoa(r.IntN(2001) - 1000)
			default:
				row[j] = strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(9)-4)), 'g', -1, 64)
			}
		}
		t.cells = append(t.cells, row)
		t.labels = append(t.labels, t.classes[r.IntN(len(t.classes))])
	}
	return t
}

func (t randomTable) missingAs(s, missing string) string {
	if s == "" {
		return missing
	}
	return s
}

func (t randomTable) keel(r *rand.Rand) string {
	eol := []string{"\n", "\r\n"}[r.IntN(2)]
	sep := []string{",", ", ", " ,  "}[r.IntN(3)]
	var b strings.Builder
	b.WriteString("@relation rt" + eol)
	for j, n := range t.names {
		if t.nominal[j] {
			b.WriteString("@attribute " + n + " {" + strings.Join(t.domains[j], sep) + "}" + eol)
		} else {
			b.WriteString("@attribute " + n + " real" + eol)
		}
	}
	b.WriteString("@attribute Class {" + strings.Join(t.classes, sep) + "}" + eol)
	b.WriteString("@inputs " + strings.Join(t.names, ", ") + eol + "@outputs Class" + eol + "@data" + eol)
	for i, row := range t.cells {
		for j := range row {
			b.WriteString(t.missingAs(row[j], "?") + sep)
		}
		b.WriteString(t.labels[i] + eol)
	}
	return b.String()
}

func (t randomTable) arff() string {
	var b strings.Builder
	b.WriteString("@relation rt\n")
	for j, n := range t.names {
		if t.nominal[j] {
			b.WriteString("@attribute '" + n + "' {" + strings.Join(t.domains[j], ",") + "}\n")
		} else {
			b.WriteString("@attribute " + n + " numeric\n")
		}
	}
	b.WriteString("@attribute class {" + strings.Join(t.classes, ",") + "}\n@data\n")
	for i, row := range t.cells {
		for j := range row {
			b.WriteString(t.missingAs(row[j], "?") + ",")
		}
		b.WriteString(t.labels[i] + "\n")
	}
	return b.String()
}

func (t randomTable) csv() string {
	var b strings.Builder
	b.WriteString(strings.Join(t.names, ",") + ",class\n")
	for i, row := range t.cells {
		b.WriteString(strings.Join(row, ",") + "," + t.labels[i] + "\n")
	}
	return b.String()
}

// check compares a read dataset with the table cell by cell, through the
// labels so that the comparison does not depend on each format's coding.
func (t randomTable) check(tb testing.TB, format string, d *Dataset) {
	tb.Helper()
	if err := d.Validate(); err != nil {
		tb.Fatalf("%s: %v", format, err)
	}
	if d.Rows() != len(t.cells) || len(d.Inputs) != len(t.names) {
		tb.Fatalf("%s: shape %d×%d, want %d×%d", format, d.Rows(), len(d.Inputs), len(t.cells), len(t.names))
	}
	for i, row := range t.cells {
		if got := d.Classes[d.Y[i]]; got != t.labels[i] {
			tb.Fatalf("%s: row %d label %q, want %q", format, i, got, t.labels[i])
		}
		for j, want := range row {
			v := d.X[i][j]
			switch {
			case want == "":
				if !math.IsNaN(v) {
					tb.Fatalf("%s: row %d col %d = %v, want missing", format, i, j, v)
				}
			case t.nominal[j]:
				if got := d.Inputs[j].Domain[int(v)]; got != want {
					tb.Fatalf("%s: row %d col %d = %q, want %q", format, i, j, got, want)
				}
			default:
				if w, _ := strconv.ParseFloat(want, 64); v != w {
					tb.Fatalf("%s: row %d col %d = %v, want %v", format, i, j, v, w)
				}
			}
		}
	}
}

// TestRoundTripProperty writes random tables in the three formats and
// checks that every reader gives back exactly the cells written.
func TestRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(20261121, 7))
	for iter := 0; iter < 300; iter++ {
		tab := newRandomTable(r)
		src := tab.keel(r)
		d, err := ReadKEEL(strings.NewReader(src), "rt", "")
		if err != nil {
			t.Fatalf("KEEL: %v\n%s", err, src)
		}
		tab.check(t, "KEEL", d)
		if d, err = ReadARFF(strings.NewReader(tab.arff()), "rt", "", ""); err != nil {
			t.Fatalf("ARFF: %v\n%s", err, tab.arff())
		}
		tab.check(t, "ARFF", d)
		if d, err = ReadCSV(strings.NewReader(tab.csv()), "rt", "", "class"); err != nil {
			t.Fatalf("CSV: %v\n%s", err, tab.csv())
		}
		tab.check(t, "CSV", d)
	}
}
