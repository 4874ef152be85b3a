package datasets

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCSVColumnTyping pins the CSV typing rule: missing cells, numeric and
// nominal columns, and the refusals that keep a bad cell from changing a
// column's type.
func TestCSVColumnTyping(t *testing.T) {
	nan := math.NaN()
	ok := []struct {
		name    string
		src     string
		nominal []string
		types   []string
		x       [][]float64
	}{
		{"NaN empty and ? are missing", "x,y,c\n1,NaN,a\nnan,?,b\n,2.5,a\n", nil,
			[]string{"integer", "real"}, [][]float64{{1, nan}, {nan, nan}, {nan, 2.5}}},
		{"text column stays nominal", "x,y,c\nred,1,a\nblue,2,b\nred,3,a\n", nil,
			[]string{"nominal", "integer"}, [][]float64{{0, 1}, {1, 2}, {0, 3}}},
		{"inf is a category of a text column", "x,y,c\nInf,1,a\nChild,2,b\n", nil,
			[]string{"nominal", "integer"}, [][]float64{{0, 1}, {1, 2}}},
		{"option declares codes nominal", "x,zip,c\n1,75001,a\n2,13002,b\n3,75001,a\n", []string{"zip"},
			[]string{"integer", "nominal"}, [][]float64{{1, 0}, {2, 1}, {3, 0}}},
		{"header declares codes nominal", "x,zip:nominal,c\n1,75001,a\n2,abc,b\n3,75001,a\n", nil,
			[]string{"integer", "nominal"}, [][]float64{{1, 0}, {2, 1}, {3, 0}}},
		{"declared nominal keeps inf as a category", "x:nominal,y,c\n1,1,a\ninf,2,b\n", nil,
			[]string{"nominal", "integer"}, [][]float64{{0, 1}, {1, 2}}},
		{"all missing column", "x,y,c\n?,1,a\n,2,b\n", nil,
			[]string{"real", "integer"}, [][]float64{{nan, 1}, {nan, 2}}},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadCSVWith(strings.NewReader(c.src), "t", "t.csv", CSVOptions{Nominal: c.nominal})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, a := range d.Inputs {
				types = append(types, a.Type)
			}
			if !reflect.DeepEqual(types, c.types) || !sameMatrix(d.X, c.x) {
				t.Fatalf("types %v X %v, want %v %v", types, d.X, c.types, c.x)
			}
			if d.Inputs[1].Name == "zip:nominal" || d.Inputs[0].Name == "x:nominal" {
				t.Fatalf("declaration left in the column name: %+v", d.Inputs)
			}
		})
	}

	bad := []struct {
		name, src string
		nominal   []string
		want      string
	}{
		{"word in a numeric column", "x,y,c\n1,2,a\n3,abc,b\n5,6,a\n", nil,
			`t.csv:3: column 2 (y): "abc" is not a number, but 2 other cells of this column are`},
		{"number in a text column", "x,y,c\nred,2,a\n7,2,b\nblue,2,a\n", nil,
			`t.csv:3: column 1 (x): "7" is a number, but 2 other cells of this column are text`},
		{"inf", "x,y,c\n1,2,a\ninf,2,b\n", nil, `t.csv:3: column 1 (x): "inf" is infinite`},
		{"-inf", "x,y,c\n1,2,a\n-inf,2,b\n", nil, `t.csv:3: column 1 (x): "-inf" is infinite`},
		{"Infinity", "x,y,c\n1,2,a\n2,-Infinity,b\n", nil, `t.csv:3: column 2 (y): "-Infinity" is infinite`},
		{"overflow", "x,y,c\n1,2,a\n1e999,2,b\n", nil, `t.csv:3: column 1 (x): "1e999" is beyond the float64 range`},
		{"missing class NaN", "x,c\n1,a\n2,NaN\n", nil, "t.csv:3: missing class value"},
		{"unknown nominal column", "x,c\n1,a\n", []string{"zz"}, `t.csv:1: nominal class column "zz" not found`},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSVWith(strings.NewReader(c.src), "t", "t.csv", CSVOptions{Nominal: c.nominal})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans several lines: %q", err)
			}
		})
	}
}

// TestOneCellNeverFlipsAType edits every cell of a numeric and of a nominal
// column in turn, to a word, a number, an infinity or a missing marker:
// the column either keeps its type or the file is refused.
func TestOneCellNeverFlipsAType(t *testing.T) {
	numeric := []string{"1", "2.5", "-3", "4e2", "5"}
	nominal := []string{"red", "blue", "red", "green", "blue"}
	edits := []string{"abc", "7", "inf", "-Infinity", "NaN", "?", "", "1e999", "nan"}
	build := func(a, b []string) string {
		var s strings.Builder
		s.WriteString("num,nom,c\n")
		for i := range a {
			s.WriteString(a[i] + "," + b[i] + ",k" + string(rune('0'+i%2)) + "\n")
		}
		return s.String()
	}
	for i := range numeric {
		for _, e := range edits {
			for col := 0; col < 2; col++ {
				a, b := append([]string(nil), numeric...), append([]string(nil), nominal...)
				want := []string{"real", "nominal"}[col]
				if col == 0 {
					a[i] = e
				} else {
					b[i] = e
				}
				d, err := ReadCSV(strings.NewReader(build(a, b)), "t", "t.csv", "")
				if err != nil {
					continue // refused: fine
				}
				if got := d.Inputs[col].Type; got != want {
					t.Errorf("cell %d of column %d set to %q: type %s, want %s or an error", i, col, e, got, want)
				}
				for _, row := range d.X {
					for _, v := range row {
						if math.IsInf(v, 0) {
							t.Errorf("cell %d of column %d set to %q: an infinity was read", i, col, e)
						}
					}
				}
			}
		}
	}
}

// TestReadFileWithNominal: the Go option reaches CSV files through
// ReadFileWith and is refused for formats whose header declares types.
func TestReadFileWithNominal(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "codes.csv")
	datPath := filepath.Join(dir, "k.dat")
	os.WriteFile(csvPath, []byte("code,c\n1,a\n2,b\n"), 0o644)
	os.WriteFile(datPath, []byte("@attribute a real\n@attribute c {x,y}\n@data\n1,x\n"), 0o644)
	d, err := ReadFileWith(csvPath, CSVOptions{Nominal: []string{"code"}})
	if err != nil || !d.Inputs[0].Nominal() {
		t.Fatalf("%v %+v", err, d)
	}
	if _, err := ReadFileWith(datPath, CSVOptions{Nominal: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "CSV files only") {
		t.Fatalf("KEEL with nominal option: %v", err)
	}
	// ParseFile reads given bytes exactly as ReadFileWith reads the file.
	for _, p := range []string{csvPath, datPath} {
		data, _ := os.ReadFile(p)
		a, err1 := ReadFileWith(p, CSVOptions{})
		b, err2 := ParseFile(p, data, CSVOptions{})
		if err1 != nil || err2 != nil || fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) { // %v: NaN ranges compare equal
			t.Fatalf("%s: ReadFileWith %v, ParseFile %v", p, err1, err2)
		}
	}
}

// TestNaNIsMissingInEveryReader: a NaN cell of a numeric column is a
// missing value in KEEL, ARFF (as Weka reads it) and CSV alike.
func TestNaNIsMissingInEveryReader(t *testing.T) {
	keel := "@attribute a real\n@attribute c {x,y}\n@data\nNaN,x\n1,y\n"
	arff := "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\nnan,x\n1,y\n"
	csv := "a,c\nNaN,x\n1,y\n"
	dk, err1 := ReadKEEL(strings.NewReader(keel), "k", "")
	da, err2 := ReadARFF(strings.NewReader(arff), "a", "", "")
	dc, err3 := ReadCSV(strings.NewReader(csv), "c", "", "")
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	for _, d := range []*Dataset{dk, da, dc} {
		if !math.IsNaN(d.X[0][0]) || d.X[1][0] != 1 || len(d.MissingRows()) != 1 {
			t.Errorf("%s: X %v", d.Name, d.X)
		}
	}
}
