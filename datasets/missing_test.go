package datasets

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFirstMissingCell: every reader records where the file's first
// missing input cell is (line, 1-based field, column name), and
// MissingError names it in one line; complete files record none.
func TestFirstMissingCell(t *testing.T) {
	const keel = `@relation r
@attribute a real [0, 9]
@attribute b real [0, 9]
@attribute class {x, y}
@inputs a, b
@outputs class
@data
1, 2, x
3, 4, y
5, ?, x
?, 6, y
`
	const arff = `@relation r
@attribute a numeric
@attribute b numeric
@attribute class {x,y}
@data
1,2,x
3,4,y
5,?,x
?,6,y
`
	cases := []struct {
		name, file, text string
		read             func(path string) (*Dataset, error)
		want             Cell
	}{
		{"keel", "d.dat", keel, ReadKEELFile, Cell{Line: 10, Column: 2, Name: "b"}},
		{"arff", "d.arff", arff, func(p string) (*Dataset, error) { return ReadFile(p, "") }, Cell{Line: 8, Column: 2, Name: "b"}},
		// The streaming tokenizer (LoadFile on a numeric CSV) and the
		// general reader (a quoted field sends the file there).
		{"csv streamed", "d.csv", "a,b,class\n1,2,x\n3,4,y\n5,,x\n,6,y\n", func(p string) (*Dataset, error) { return LoadFile(p, LoadOptions{}) }, Cell{Line: 4, Column: 2, Name: "b"}},
		{"csv general", "d.csv", "a,b,class\n1,2,\"x\"\n3,4,y\n5,?,x\nNaN,6,y\n", func(p string) (*Dataset, error) { return LoadFile(p, LoadOptions{}) }, Cell{Line: 4, Column: 2, Name: "b"}},
		{"csv class first", "d.csv", "class,a,b\nx,1,2\ny,3,4\nx,5,\ny,,6\n", func(p string) (*Dataset, error) { return ReadFile(p, "class") }, Cell{Line: 4, Column: 3, Name: "b"}},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), c.file)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := c.read(path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(d.FirstMissing, c.want) {
			t.Errorf("%s: first missing cell %+v, want %+v", c.name, d.FirstMissing, c.want)
		}
		if got := d.MissingByColumn(); !reflect.DeepEqual(got, []int{1, 1}) {
			t.Errorf("%s: missing cells per column %v, want [1 1]", c.name, got)
		}
		err = d.MissingError()
		want := path + ":" + strconv.Itoa(c.want.Line) + ": column " + strconv.Itoa(c.want.Column) + " (b): missing value (2 missing cells in 2 of 4 rows)"
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line beginning %q", c.name, err, want)
		}
	}

	complete, err := ReadKEEL(strings.NewReader(strings.ReplaceAll(keel, "?", "0")), "k", "k.dat")
	if err != nil {
		t.Fatal(err)
	}
	if complete.FirstMissing != (Cell{}) || complete.MissingError() != nil {
		t.Errorf("a complete file records a missing cell %+v (%v)", complete.FirstMissing, complete.MissingError())
	}
	// Data built in memory has no line: the row and column say where.
	mem := &Dataset{Name: "mem", Inputs: []Attribute{{Name: "a"}, {Name: "b"}}, X: [][]float64{{1, 2}, {3, math.NaN()}}, Y: []int{0, 1}}
	if err := mem.MissingError(); err == nil || !strings.HasPrefix(err.Error(), "mem: data row 2, column b: missing value") {
		t.Errorf("in-memory data: %v", err)
	}
}
