package datasets

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadCases are files on which LoadFile must agree with ParseFile +
// NormalizedSHA256 (the reading it replaces): numeric files the streaming
// tokenizer reads itself, and every kind of file it hands to ReadCSVWith.
var loadCases = []struct {
	name, text string
	fast       bool // read by the streaming tokenizer
}{
	{"numeric", "a,b,cls\n1,2.5,x\n3,-4e2,y\n5,.5,x\n", true},
	{"crlf and blanks", "a , b,cls \r\n 1 ,2 ,x  \r\n\r\n3,4,y\r\n", true},
	{"integer column and numeric classes", "a,b,cls\n1,2,10\n3,4,9\n5,6,10\n", true},
	{"missing cells", "a,b,cls\n,?,x\nNaN,nan,y\n1,2,x\n", true},
	{"all missing column", "a,b,cls\n,1,x\n?,2,y\n", true},
	{"no final newline", "a,b,cls\n1,2,x\n3,4,y", true},
	{"decimal class labels", "a,b,cls\n1,2,0.5\n3,4,-1\n5,6,0.5\n", true},
	{"byte order mark", "\ufeffa,b,cls\n1,2,x\n3,4,y\n", true},
	{"trailing blanks hashed away", "a,b,cls \t\n1,2,x \n3,4,y\t\n", true},
	{"underflow", "a,b,cls\n1e-400,2,x\n3,4,y\n", true},
	{"nominal column", "a,colour,cls\n1,red,x\n2,blue,y\n", false},
	{"declared nominal", "a,zip:nominal,cls\n1,7,x\n2,8,y\n", false},
	{"quoted field", "a,b,cls\n1,\"2\",x\n3,4,y\n", false},
	{"mixed column", "a,b,cls\n1,2,x\n3,four,y\n5,6,x\n", false},
	{"infinity", "a,b,cls\n1,inf,x\n3,4,y\n", false},
	{"overflow", "a,b,cls\n1,1e999,x\n3,4,y\n", false},
	{"short row", "a,b,cls\n1,2,x\n3,y\n", false},
	{"long row", "a,b,cls\n1,2,x\n3,4,5,y\n", false},
	{"missing class", "a,b,cls\n1,2,x\n3,4,\n", false},
	{"header only", "a,b,cls\n", false},
	{"empty", "", false},
	{"one column", "a\n1\n", false},
	{"duplicate names", "a,a,cls\n1,2,x\n", false},
	{"bare CR", "a,b,cls\n1,2\r,x\n3,4,y\n", false},
	{"blank first line", "\na,b,cls\n1,2,x\n", false},
}

// TestLoadFileAgrees pins the one-pass loader to the reading it replaces:
// the same Dataset (values bit for bit, types, classes), the same checksum
// and the same error message, and reports which files took the fast path.
func TestLoadFileAgrees(t *testing.T) {
	dir := t.TempDir()
	for _, c := range loadCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			checkLoadAgrees(t, path, []byte(c.text), CSVOptions{})
			f, _ := os.Open(path)
			defer f.Close()
			d, err := readNumericCSV(f, path, int64(len(c.text)), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if (d != nil) != c.fast {
				t.Errorf("streaming tokenizer read it: %v, want %v", d != nil, c.fast)
			}
		})
	}
}

// TestLoadFileBlocks crosses the read blocks' boundaries: a file several
// blocks long, with lines of every length, reads as ParseFile reads it.
func TestLoadFileBlocks(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,cls\n")
	for i := 0; b.Len() < 3*loadBlock+12345; i++ {
		fmt.Fprintf(&b, "%d,%g,%s,%c\r\n", i, float64(i)/7, strings.Repeat("1", 1+i%40), 'a'+rune(i%3))
	}
	path := filepath.Join(t.TempDir(), "blocks.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls int
	var last int64
	d := checkLoadAgrees(t, path, []byte(b.String()), CSVOptions{})
	_, err := LoadFile(path, LoadOptions{Progress: func(read, size int64) { calls++; last = read }})
	if err != nil || calls < 4 || last != int64(b.Len()) {
		t.Errorf("progress: %d calls, last at %d of %d (err %v)", calls, last, b.Len(), err)
	}
	if d.Rows() < 100000 {
		t.Errorf("%d rows", d.Rows())
	}
}

// TestNormalizedHashPieces checks the streaming checksum against
// NormalizedSHA256 for every split of inputs with CRs and trailing blanks.
func TestNormalizedHashPieces(t *testing.T) {
	for _, s := range []string{"a \t\r\nb  c \r\n", "x \r \n y\t", "  \n\n \r", "no newline  ", ""} {
		want := NormalizedSHA256([]byte(s))
		for cut := 0; cut <= len(s); cut++ {
			for cut2 := cut; cut2 <= len(s); cut2++ {
				h := newNormalizedHash()
				h.Write([]byte(s[:cut]))
				h.Write([]byte(s[cut:cut2]))
				h.Write([]byte(s[cut2:]))
				if got := h.Sum(); got != want {
					t.Fatalf("%q cut at %d,%d: %s, want %s", s, cut, cut2, got, want)
				}
			}
		}
	}
}

// checkLoadAgrees compares LoadFile with ParseFile + NormalizedSHA256 on
// the file at path (whose content is data).
func checkLoadAgrees(t *testing.T, path string, data []byte, o CSVOptions) *Dataset {
	t.Helper()
	want, wantErr := ParseFile(path, data, o)
	got, err := LoadFile(path, LoadOptions{CSV: o})
	if (err != nil) != (wantErr != nil) || (err != nil && err.Error() != wantErr.Error()) {
		t.Fatalf("error %v, want %v", err, wantErr)
	}
	if err != nil {
		return nil
	}
	want.Checksum = NormalizedSHA256(data)
	if d := datasetDiff(got, want); d != "" {
		t.Fatalf("LoadFile differs from ParseFile: %s", d)
	}
	return got
}

// datasetDiff describes the first difference between two datasets, with
// NaN equal to NaN (reflect.DeepEqual would call every NaN different).
func datasetDiff(a, b *Dataset) string {
	if a.Name != b.Name || a.Path != b.Path || a.Checksum != b.Checksum {
		return fmt.Sprintf("name/path/checksum %q %q %q vs %q %q %q", a.Name, a.Path, a.Checksum, b.Name, b.Path, b.Checksum)
	}
	if fmt.Sprintf("%#v %#v %#v", a.Inputs, a.Output, a.Classes) != fmt.Sprintf("%#v %#v %#v", b.Inputs, b.Output, b.Classes) {
		return fmt.Sprintf("attributes %#v %#v vs %#v %#v", a.Inputs, a.Output, b.Inputs, b.Output)
	}
	if len(a.X) != len(b.X) || fmt.Sprint(a.Y) != fmt.Sprint(b.Y) {
		return fmt.Sprintf("%d rows, labels %v vs %d rows, labels %v", len(a.X), a.Y, len(b.X), b.Y)
	}
	for i := range a.X {
		if len(a.X[i]) != len(b.X[i]) {
			return fmt.Sprintf("row %d width %d vs %d", i, len(a.X[i]), len(b.X[i]))
		}
		for j := range a.X[i] {
			if math.Float64bits(a.X[i][j]) != math.Float64bits(b.X[i][j]) && !(math.IsNaN(a.X[i][j]) && math.IsNaN(b.X[i][j])) {
				return fmt.Sprintf("row %d column %d: %v vs %v", i, j, a.X[i][j], b.X[i][j])
			}
		}
	}
	return ""
}

// FuzzLoadFile: on any bytes, LoadFile and ParseFile agree.
func FuzzLoadFile(f *testing.F) {
	for _, c := range loadCases {
		f.Add([]byte(c.text))
	}
	for _, data := range realFiles(f) {
		f.Add(keelToCSV(headLines(data, 80)))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkLoadAgrees(t, path, data, CSVOptions{})
	})
}

// The KEEL reader streams through LoadFile's hash, which must give the
// registry's checksums.
func TestLoadFileKEEL(t *testing.T) {
	if len(realFiles(t)) == 0 {
		t.Skip("dataset mirror absent (set FGRT_DATA_MIRROR)")
	}
	for name, data := range realFiles(t) {
		path := filepath.Join(t.TempDir(), name+".dat")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if d := checkLoadAgrees(t, path, data, CSVOptions{}); d.Checksum != mustInfo(t, name).NormalizedSHA256 {
			t.Errorf("%s: checksum %s, registry %s", name, d.Checksum, mustInfo(t, name).NormalizedSHA256)
		}
	}
}

func mustInfo(t *testing.T, name string) Info {
	info, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// benchCSV writes a numeric CSV of rows × 20 columns and 3 classes, like
// the large-data study's file (timing's generator writes that one).
func benchCSV(b *testing.B, rows int) string {
	var s strings.Builder
	for j := 0; j < 20; j++ {
		fmt.Fprintf(&s, "x%d,", j)
	}
	s.WriteString("class\n")
	for i := 0; i < rows; i++ {
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&s, "%.6f,", math.Sin(float64(i*20+j)))
		}
		fmt.Fprintf(&s, "c%d\n", i%3)
	}
	path := filepath.Join(b.TempDir(), "bench.csv")
	if err := os.WriteFile(path, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkLoadFileCSV reads 10^5 rows × 20 numeric columns with the
// streaming tokenizer (MB/s is of file bytes).
func BenchmarkLoadFileCSV(b *testing.B) {
	path := benchCSV(b, 100_000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadFile(path, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseFileCSV is the reading LoadFile replaces, for comparison.
func BenchmarkParseFileCSV(b *testing.B) {
	path := benchCSV(b, 100_000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ParseFile(path, data, CSVOptions{}); err != nil {
			b.Fatal(err)
		}
		_ = NormalizedSHA256(data)
	}
}
