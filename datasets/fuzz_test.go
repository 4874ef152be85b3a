package datasets

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// realFiles returns the bytes of the ten reference KEEL files, or nothing
// when the mirror is absent (the fuzz targets then run on the hand-made
// seeds only).
func realFiles(tb testing.TB) map[string][]byte {
	dir := sharedtest.Mirror()
	out := make(map[string][]byte)
	if dir == "" {
		return out
	}
	for _, n := range Names() {
		data, err := os.ReadFile(filepath.Join(dir, n+".dat"))
		if err == nil {
			out[n] = data
		}
	}
	return out
}

// headLines returns the first n lines of data, so that the two large files
// also give cheap seeds the mutator can work on quickly.
func headLines(data []byte, n int) []byte {
	end := 0
	for i := 0; i < n; i++ {
		k := bytes.IndexByte(data[end:], '\n')
		if k < 0 {
			return data
		}
		end += k + 1
	}
	return data[:end]
}

// keelToARFF rewrites a KEEL file as ARFF by dropping @inputs/@outputs
// (whose roles ARFF does not have); the rest of a KEEL header is valid for
// ReadARFF.
func keelToARFF(data []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(l, "@inputs") || strings.HasPrefix(l, "@output") {
			continue
		}
		b.WriteString(line)
	}
	return b.Bytes()
}

// keelToCSV rewrites a KEEL file as CSV: a header of attribute names and the
// data rows as they are.
func keelToCSV(data []byte) []byte {
	var names []string
	var b bytes.Buffer
	inData := false
	for _, line := range strings.SplitAfter(string(data), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case inData:
			b.WriteString(line)
		case strings.HasPrefix(strings.ToLower(t), "@attribute"):
			if n, _, err := attributeName(strings.TrimSpace(t[len("@attribute"):])); err == nil {
				names = append(names, n)
			}
		case strings.ToLower(t) == "@data":
			inData = true
			b.WriteString(strings.Join(names, ",") + "\n")
		}
	}
	return b.Bytes()
}

// maxFullSeed is the largest real file added whole to a fuzz corpus.
const maxFullSeed = 64 << 10

var keelSeeds = []string{
	keelMixed,
	tinyKEEL,
	"@relation r\n@attribute a real\n@attribute c {x,y}\n@data\n1,x\n",
	"@attribute a integer[0,3]\n@attribute b {p, q}\n@attribute c {1, 0}\n@inputs b, a\n@outputs c\n@data\n1, p, 1\n?, ?, 0\n",
	"@attribute a real\n@attribute c {}\n@data\n1,x\n",
	"@attribute 'quoted name' {a}\n@attribute c{0,1}\n@data\nb,1\n",
	"@data\n",
	"@attribute a real [-1e308, 1e308]\n@attribute c {x}\n@data\n1e309,x\n",
	"@attribute a real\n@attribute c {x}\n@data\n<null>,x\n",
}

// checkFuzzResult states the invariants every reader must keep: a returned
// dataset passes Validate, holds only finite numbers or NaN, and has a
// class list and one label per row.
func checkFuzzResult(t *testing.T, d *Dataset, err error, oneLineErrors bool) {
	t.Helper()
	if err != nil {
		if d != nil {
			t.Fatalf("non-nil dataset with error %v", err)
		}
		if oneLineErrors && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
		return
	}
	if verr := d.Validate(); verr != nil {
		t.Fatalf("Validate: %v", verr)
	}
	if len(d.Classes) == 0 || len(d.Inputs) == 0 || d.Rows() == 0 {
		t.Fatalf("empty dataset accepted: %d classes, %d inputs, %d rows", len(d.Classes), len(d.Inputs), d.Rows())
	}
	for _, row := range d.X {
		for _, v := range row {
			if math.IsInf(v, 0) {
				t.Fatalf("infinite value in X")
			}
		}
	}
	// The derived views must not panic either.
	d.Schema()
	d.FirstAppearanceCodes()
	d.CompleteRows()
}

func FuzzReadKEEL(f *testing.F) {
	for _, s := range keelSeeds {
		f.Add([]byte(s))
	}
	for _, data := range realFiles(f) {
		// ring and spambase (1.2 and 1.4 MB) are added as their first 80
		// lines only: a megabyte seed makes every mutation and every
		// minimisation run the reader over the whole file, which stalled
		// the fuzzer for minutes. The full files are read by the real-file
		// tests.
		if len(data) <= maxFullSeed {
			f.Add(data)
		}
		f.Add(headLines(data, 80))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadKEEL(bytes.NewReader(data), "fuzz", "fuzz.dat")
		checkFuzzResult(t, d, err, true)
	})
}

func FuzzReadARFF(f *testing.F) {
	seeds := []string{
		arffSample,
		"@relation n\n@attribute Grade integer\n@attribute a real\n@data\n10,1\n9,2\n",
		"@relation q\n@attribute \"a b\" {'x,y', \"z\\\"\"}\n@attribute c {p}\n@data\n'x,y',p\n\"z\\\"\",p\n",
		"@attribute a numeric\n@attribute c {x}\n@data\n{0 1}\n",
		"@attribute a numeric\n@attribute c {x}\n@data\n'unterminated,x\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "")
	}
	f.Add([]byte(arffSample), "outlook")
	for name, data := range realFiles(f) {
		f.Add(keelToARFF(headLines(data, 80)), "")
		if name == "saheart" {
			f.Add(keelToARFF(data), "Famhist")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, class string) {
		d, err := ReadARFF(bytes.NewReader(data), "fuzz", "fuzz.arff", class)
		checkFuzzResult(t, d, err, true)
	})
}

func FuzzReadCSV(f *testing.F) {
	seeds := []string{
		"x, colour ,n,label\n1.5,red,3,b\n?,blue,4,a\n2,red,,b\n-1e1,\"dark, red\",5,c\n",
		"a,cls,b\n1,10,2\n3,9,4\n",
		"a,b\n1,2\n3\n",
		"a,b\n\"x\ny\",1\n",
		"a\n1\n",
		"",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "")
	}
	f.Add([]byte("a,cls,b\n1,10,2\n3,9,4\n"), "cls")
	for _, data := range realFiles(f) {
		f.Add(keelToCSV(headLines(data, 80)), "")
	}
	f.Fuzz(func(t *testing.T, data []byte, class string) {
		d, err := ReadCSV(bytes.NewReader(data), "fuzz", "fuzz.csv", class)
		checkFuzzResult(t, d, err, false)
	})
}
