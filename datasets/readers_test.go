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

// A small KEEL file exercising the header variants found in the ten
// benchmark files: CRLF endings, '@output', glued and spaced ranges, nominal
// lists with and without blanks, an output not named Class that is declared
// before an input, '?' cells, '.28'-style numbers and a comment line.
const keelMixed = "% hand-made test file\r\n" +
	"@relation mixed\r\n" +
	"@attribute Size real[0.0,10.0]\r\n" +
	"@attribute Count integer [0, 9]\r\n" +
	"@attribute Chd {1, 0}\r\n" +
	"@attribute Colour {red,green}\r\n" +
	"@inputs Colour, Size, Count\r\n" +
	"@output Chd\r\n" +
	"@data\r\n" +
	"1.5, 3, 1, green\r\n" +
	".28,4,0,red\r\n" +
	"%  a comment inside the data\r\n" +
	"?, 7, 0, blue\r\n" +
	"\r\n" +
	"2e1 , ?, 1 , green\r\n"

func TestReadKEELMixed(t *testing.T) {
	d, err := ReadKEEL(strings.NewReader(keelMixed), "mixed", "mixed.dat")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	wantX := [][]float64{{1, 1.5, 3}, {0, 0.28, 4}, {2, nan, 7}, {1, 20, nan}}
	if !sameMatrix(d.X, wantX) {
		t.Errorf("X = %v, want %v", d.X, wantX)
	}
	if want := []int{0, 1, 1, 0}; !reflect.DeepEqual(d.Y, want) {
		t.Errorf("Y = %v, want %v (class index = position in {1, 0})", d.Y, want)
	}
	if want := []string{"1", "0"}; !reflect.DeepEqual(d.Classes, want) {
		t.Errorf("Classes = %v, want %v", d.Classes, want)
	}
	names := []string{d.Inputs[0].Name, d.Inputs[1].Name, d.Inputs[2].Name}
	if want := []string{"Colour", "Size", "Count"}; !reflect.DeepEqual(names, want) {
		t.Errorf("input order = %v, want @inputs order %v", names, want)
	}
	if got := d.Inputs[0].Domain; !reflect.DeepEqual(got, []string{"red", "green", "blue"}) {
		t.Errorf("Colour domain = %v, want undeclared 'blue' appended", got)
	}
	if d.Inputs[1].Min != 0 || d.Inputs[1].Max != 10 || d.Inputs[2].Min != 0 || d.Inputs[2].Max != 9 {
		t.Errorf("ranges = %+v %+v", d.Inputs[1], d.Inputs[2])
	}
	if d.Inputs[1].Type != "real" || d.Inputs[2].Type != "integer" || d.Output.Name != "Chd" {
		t.Errorf("types/output wrong: %+v, %+v, output %q", d.Inputs[1], d.Inputs[2], d.Output.Name)
	}
	if d.Inputs[1].IntegerLiterals || !d.Inputs[2].IntegerLiterals || d.Inputs[0].IntegerLiterals {
		t.Errorf("IntegerLiterals = %v %v %v, want false true false", d.Inputs[0].IntegerLiterals, d.Inputs[1].IntegerLiterals, d.Inputs[2].IntegerLiterals)
	}
	fa, labels := d.FirstAppearanceCodes()
	if fa[0][0] != 0 || fa[1][0] != 1 || fa[2][0] != 2 || !reflect.DeepEqual(labels[0], []string{"green", "red", "blue"}) {
		t.Errorf("first-appearance codes = %v labels %v", fa, labels[0])
	}
}

func TestReadKEELDefaultsWithoutInputsOutputs(t *testing.T) {
	src := "@relation r\n@attribute a real\n@attribute b integer\n@attribute c {x,y}\n@data\n1,2,y\n3,4,x\n"
	d, err := ReadKEEL(strings.NewReader(src), "", "dir/r.dat")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "r" || len(d.Inputs) != 2 || d.Output.Name != "c" || !reflect.DeepEqual(d.Y, []int{1, 0}) {
		t.Errorf("got name %q inputs %d output %q Y %v", d.Name, len(d.Inputs), d.Output.Name, d.Y)
	}
	if !math.IsNaN(d.Inputs[0].Min) {
		t.Errorf("Min without declared range = %v, want NaN", d.Inputs[0].Min)
	}
}

func TestReadKEELErrors(t *testing.T) {
	head := "@relation t\n@attribute a real\n@attribute b {p,q}\n@inputs a\n@outputs b\n"
	cases := []struct {
		name, src, want string
	}{
		{"missing data", head, "missing @data"},
		{"field count", head + "@data\n1,p\n2\n", "t.dat:8: data row has 1 values, want 2"},
		{"non-numeric", head + "@data\nabc,p\n", "t.dat:7: column a is real but the value \"abc\" is not a number"},
		{"infinite", head + "@data\n-inf,p\n", "t.dat:7: column a is real but the value \"-inf\" is infinite"},
		{"infinity word", head + "@data\nInfinity,p\n", "infinite"},
		{"overflow", head + "@data\n1e999,p\n", "t.dat:7: column a is real but the value \"1e999\" is outside the float64 range"},
		{"unknown class", head + "@data\n1,r\n", "t.dat:7: unknown class label \"r\""},
		{"missing class", head + "@data\n1,?\n", "missing class label"},
		{"no rows", head + "@data\n% nothing\n", "t.dat:6: no data rows"},
		{"unknown directive", "@relation t\n@foo bar\n", "t.dat:2: unknown header directive"},
		{"text in header", "@relation t\nhello\n", "t.dat:2: expected a header directive"},
		{"bad type", "@attribute a string\n", "unsupported type"},
		{"bad range", "@attribute a real [1]\n", "must have two bounds"},
		{"bad bound", "@attribute a real [x, 2]\n", "not a number"},
		{"unclosed nominal", "@attribute a {x,y\n", "does not end with '}'"},
		{"duplicate value", "@attribute a {x,x}\n", "listed twice"},
		{"duplicate attribute", "@attribute a real\n@attribute a real\n", "declared twice"},
		{"undeclared input", "@attribute a real\n@attribute b {p}\n@inputs z\n@data\n", "@inputs names \"z\""},
		{"two outputs", "@attribute a real\n@attribute b {p}\n@outputs a, b\n@data\n", "exactly one"},
		{"numeric output", "@attribute a real\n@attribute b real\n@data\n1,2\n", "needs a nominal output"},
		{"no inputs", "@attribute b {p}\n@data\np\n", "no input attributes"},
		{"input is output", "@attribute a real\n@attribute b {p}\n@inputs a, b\n@outputs b\n@data\n", "both in @inputs and as the output"},
		{"empty", "", "missing @data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadKEEL(strings.NewReader(c.src), "t", "t.dat")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans several lines: %q", err)
			}
		})
	}
}

func TestNumberLiteral(t *testing.T) {
	cases := []struct {
		s             string
		number, integ bool
	}{
		{"0", true, true}, {"-12", true, true}, {"+3", true, true}, {"1.0", true, false},
		{".28", true, false}, {"5.", true, false}, {"1e5", true, false}, {"-2.5E-3", true, false},
		{"", false, false}, {"-", false, false}, {".", false, false}, {"1e", false, false},
		{"nan", false, false}, {"inf", false, false}, {"0x10", false, false}, {"1_000", false, false},
		{"1.2.3", false, false}, {" 1", false, false},
	}
	for _, c := range cases {
		n, i := numberLiteral(c.s)
		if n != c.number || i != c.integ {
			t.Errorf("numberLiteral(%q) = %v, %v; want %v, %v", c.s, n, i, c.number, c.integ)
		}
	}
}

const arffSample = `% comment
@RELATION 'weather data'
@attribute outlook {sunny, 'over cast', rainy}
@attribute 'temp C' NUMERIC
@attribute humidity integer
@attribute play {yes,no}

@data
sunny,85,85,no
'over cast', 83.5 , ?,yes
% another comment
rainy,?,96,yes
windy,70,70,no
`

func TestReadARFF(t *testing.T) {
	d, err := ReadARFF(strings.NewReader(arffSample), "", "w.arff", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	want := [][]float64{{0, 85, 85}, {1, 83.5, nan}, {2, nan, 96}, {3, 70, 70}}
	if !sameMatrix(d.X, want) {
		t.Errorf("X = %v, want %v", d.X, want)
	}
	if !reflect.DeepEqual(d.Y, []int{1, 0, 0, 1}) || !reflect.DeepEqual(d.Classes, []string{"yes", "no"}) {
		t.Errorf("Y = %v classes %v", d.Y, d.Classes)
	}
	if d.Inputs[1].Name != "temp C" || d.Inputs[1].Type != "real" || d.Inputs[1].IntegerLiterals || !d.Inputs[2].IntegerLiterals {
		t.Errorf("inputs = %+v", d.Inputs)
	}
	if got := d.Inputs[0].Domain; !reflect.DeepEqual(got, []string{"sunny", "over cast", "rainy", "windy"}) {
		t.Errorf("outlook domain = %v", got)
	}
	// Class chosen by name (case-insensitive fallback); a numeric class gets
	// value-sorted labels.
	numericClass := "@relation n\n@attribute Grade integer\n@attribute a real\n@data\n10,1\n9,2\n10,3\n"
	d, err = ReadARFF(strings.NewReader(numericClass), "n", "", "GRADE")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Classes, []string{"9", "10"}) || !reflect.DeepEqual(d.Y, []int{1, 0, 1}) || len(d.Inputs) != 1 || d.Output.Name != "Grade" {
		t.Errorf("classes %v Y %v inputs %d output %q", d.Classes, d.Y, len(d.Inputs), d.Output.Name)
	}
	if _, err := ReadARFF(strings.NewReader(arffSample), "w", "", "humidity"); err == nil || !strings.Contains(err.Error(), "missing class value") {
		t.Errorf("numeric class with '?': err = %v", err)
	}
}

func TestReadARFFErrors(t *testing.T) {
	head := "@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
	cases := []struct{ name, src, class, want string }{
		{"no data", head, "", "missing @data"},
		{"string attr", "@attribute s string\n", "", "not supported"},
		{"sparse", head + "@data\n{0 1, 1 x}\n", "", "sparse"},
		{"unterminated quote", head + "@data\n1,'x\n", "", "r.arff:5: unterminated"},
		{"field count", head + "@data\n1,x,3\n", "", "r.arff:5: data row has 3 values"},
		{"unknown class", head + "@data\n1,z\n", "", "unknown class label"},
		{"class not found", head + "@data\n1,x\n", "nope", "class column \"nope\" not found; columns are: a, c"},
		{"non-numeric", head + "@data\nq,x\n", "", "not a number"},
		{"infinite", head + "@data\n1,x\ninf,y\n", "", "r.arff:6: column a is real but the value \"inf\" is infinite"},
		{"overflow", head + "@data\n1,x\n-1e999,y\n", "", "r.arff:6: column a is real but the value \"-1e999\" is outside the float64 range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadARFF(strings.NewReader(c.src), "r", "r.arff", c.class)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestReadCSV(t *testing.T) {
	src := "x, colour ,n,label\n1.5,red,3,b\n?,blue,4,a\n2,red,,b\n-1e1,\"dark, red\",5,c\n"
	d, err := ReadCSV(strings.NewReader(src), "", "s.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	want := [][]float64{{1.5, 0, 3}, {nan, 1, 4}, {2, 0, nan}, {-10, 2, 5}}
	if !sameMatrix(d.X, want) {
		t.Errorf("X = %v, want %v", d.X, want)
	}
	// Text labels are sorted as numpy.unique sorts them, not kept in order
	// of first appearance (b comes first in the file).
	if !reflect.DeepEqual(d.Classes, []string{"a", "b", "c"}) || !reflect.DeepEqual(d.Y, []int{1, 0, 1, 2}) {
		t.Errorf("classes %v Y %v (want np.unique order for text labels)", d.Classes, d.Y)
	}
	types := []string{d.Inputs[0].Type, d.Inputs[1].Type, d.Inputs[2].Type}
	if !reflect.DeepEqual(types, []string{"real", "nominal", "integer"}) || d.Inputs[1].Name != "colour" {
		t.Errorf("types %v names %+v", types, d.Inputs)
	}
	if !reflect.DeepEqual(d.Inputs[1].Domain, []string{"red", "blue", "dark, red"}) {
		t.Errorf("colour domain %v", d.Inputs[1].Domain)
	}
	// Numeric labels are sorted by value; class column chosen by name.
	d, err = ReadCSV(strings.NewReader("a,cls,b\n1,10,2\n3,9,4\n5,10,6\n"), "n", "", "cls")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Classes, []string{"9", "10"}) || !reflect.DeepEqual(d.Y, []int{1, 0, 1}) || len(d.Inputs) != 2 {
		t.Errorf("classes %v Y %v inputs %d", d.Classes, d.Y, len(d.Inputs))
	}
}

// TestReadCSVByteOrderMark: a spreadsheet's byte-order mark is not part of
// the first column's name.
func TestReadCSVByteOrderMark(t *testing.T) {
	d, err := ReadCSV(strings.NewReader("\ufeffa,b,class\n1,2,x\n3,4,y\n"), "", "s.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	if d.Inputs[0].Name != "a" {
		t.Errorf("first column named %q, want \"a\"", d.Inputs[0].Name)
	}
	if _, err := ReadCSV(strings.NewReader("a,\ufeffclass\n1,x\n2,y\n"), "", "s.csv", "class"); err == nil {
		t.Error("a mark inside the header (not at the start of the file) was dropped")
	}
}

func TestReadCSVErrors(t *testing.T) {
	cases := []struct{ name, src, class, want string }{
		{"empty", "", "", "s.csv:1: empty file"},
		{"header only", "a,b\n", "", "no data rows"},
		{"one column", "a\n1\n", "", "at least one input"},
		{"field count", "a,b\n1,2\n3\n", "", "s.csv:3: row has a different number"},
		{"missing class", "a,b\n1,2\n3,?\n", "", "s.csv:3: missing class value"},
		{"bad quote", "a,b\n1,\"x\n", "", "s.csv:2"},
		{"class not found", "a,b\n1,2\n", "z", "not found"},
		{"nameless column", ",a,b\n0,1,x\n1,2,y\n", "", "s.csv:1: column 1 has no name"},
		{"repeated name", "a,b,a,c\n1,2,3,x\n", "", `s.csv:1: columns 1 and 3 are both named "a"`},
		{"repeated after declaration", "a,a:nominal,c\n1,2,x\n", "", `columns 1 and 2 are both named "a"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.src), "s", "s.csv", c.class)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestReadFileByExtension(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"k.dat":  "@attribute a real\n@attribute c {x,y}\n@data\n1,x\n",
		"w.arff": "@relation w\n@attribute a real\n@attribute c {x,y}\n@data\n1,y\n",
		"s.CSV":  "a,c\n1,x\n",
		"z.txt":  "a,c\n",
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"k.dat", "w.arff", "s.CSV"} {
		d, err := ReadFile(filepath.Join(dir, n), "")
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if want := strings.TrimSuffix(n, filepath.Ext(n)); d.Name != want || d.Rows() != 1 {
			t.Errorf("%s: name %q rows %d", n, d.Name, d.Rows())
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "z.txt"), ""); err == nil || !strings.Contains(err.Error(), "unknown dataset format") {
		t.Errorf("z.txt: err = %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "k.dat"), "other"); err == nil || !strings.Contains(err.Error(), "declares output \"c\"") {
		t.Errorf("k.dat with other class: err = %v", err)
	}
}

// sameMatrix compares matrices treating NaN as equal to NaN.
func sameMatrix(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			x, y := a[i][j], b[i][j]
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		}
	}
	return true
}

// TestCSVClassOrderIsNumpyUnique: CSV labels are ordered as numpy.unique
// orders them (numbers by value, text by code point, mixed as text), while
// KEEL keeps its header's declared order.
func TestCSVClassOrderIsNumpyUnique(t *testing.T) {
	cases := []struct {
		labels []string
		want   []string
	}{
		{[]string{"yes", "no", "maybe"}, []string{"maybe", "no", "yes"}},
		{[]string{"b", "B", "a", "é"}, []string{"B", "a", "b", "é"}},
		{[]string{"10", "2", "1"}, []string{"1", "2", "10"}},
		{[]string{"10", "x", "2"}, []string{"10", "2", "x"}},
	}
	for _, c := range cases {
		var b strings.Builder
		b.WriteString("x,class\n")
		for i, l := range c.labels {
			fmt.Fprintf(&b, "%d,%s\n", i, l)
		}
		d, err := ReadCSV(strings.NewReader(b.String()), "t", "t.csv", "")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d.Classes, c.want) {
			t.Errorf("labels %v: classes %v, want %v", c.labels, d.Classes, c.want)
		}
	}
	keel := "@relation r\n@attribute x real [0, 9]\n@attribute class {yes, no}\n@inputs x\n@outputs class\n@data\n1, no\n2, yes\n"
	d, err := ReadKEEL(strings.NewReader(keel), "r", "r.dat")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Classes, []string{"yes", "no"}) {
		t.Errorf("KEEL classes %v, want the header's order", d.Classes)
	}
}
