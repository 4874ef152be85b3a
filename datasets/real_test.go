package datasets

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// These tests read the ten reference KEEL files from the shared mirror and
// skip when it is absent.

type manifestRow struct {
	sha256                       string
	instances, features, classes int
}

func readManifest(t *testing.T) map[string]manifestRow {
	t.Helper()
	p := sharedtest.Require(t, "datasets/manifest.tsv")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := make(map[string]manifestRow)
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 7 {
			continue
		}
		atoi := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("manifest: %v", err)
			}
			return n
		}
		out[cols[0]] = manifestRow{cols[3], atoi(cols[4]), atoi(cols[5]), atoi(cols[6])}
	}
	return out
}

func readReal(t *testing.T, name string) *Dataset {
	t.Helper()
	dir := sharedtest.Require(t, "datasets/raw")
	d, err := ReadKEELFile(filepath.Join(dir, name+".dat"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRealFilesShapeAndChecksums(t *testing.T) {
	manifest := readManifest(t)
	dir := sharedtest.Require(t, "datasets/raw")
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			info, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, name+".dat"))
			if err != nil {
				t.Fatal(err)
			}
			if got := NormalizedSHA256(data); got != info.NormalizedSHA256 {
				t.Errorf("normalized SHA-256 %s, registry %s", got, info.NormalizedSHA256)
			}
			sum := sha256.Sum256(data)
			raw := hex.EncodeToString(sum[:])
			m, ok := manifest[name]
			if !ok {
				t.Fatalf("%s not in manifest", name)
			}
			if raw != info.FileSHA256 || raw != m.sha256 {
				t.Errorf("file SHA-256 %s, registry %s, manifest %s", raw, info.FileSHA256, m.sha256)
			}
			d, err := ReadKEEL(bytes.NewReader(data), name, name+".dat")
			if err != nil {
				t.Fatal(err)
			}
			if d.Rows() != m.instances || len(d.Inputs) != m.features || len(d.Classes) != m.classes {
				t.Errorf("shape %d×%d×%d, manifest %d×%d×%d", d.Rows(), len(d.Inputs), len(d.Classes), m.instances, m.features, m.classes)
			}
			if err := CheckShape(d, info); err != nil {
				t.Error(err)
			}
			if s := Summarize(d, info); s.MissingCells != info.MissingCells {
				t.Errorf("missing cells %d, registry %d", s.MissingCells, info.MissingCells)
			}
		})
	}
}

func TestRealSpambaseClassOrder(t *testing.T) {
	d := readReal(t, "spambase")
	if !reflect.DeepEqual(d.Classes, []string{"1", "0"}) || d.Output.Name != "Spam" {
		t.Fatalf("classes %v output %q", d.Classes, d.Output.Name)
	}
	// The first data row is labelled 1 (spam): index 0.
	if d.Y[0] != 0 {
		t.Errorf("first row class index %d, want 0 for label \"1\"", d.Y[0])
	}
	counts := make([]int, 2)
	for _, y := range d.Y {
		counts[y]++
	}
	if counts[0] != 1812 || counts[1] != 2785 {
		t.Errorf("class counts %v, want [1812 2785]", counts)
	}
}

func TestRealZooFirstAppearance(t *testing.T) {
	d := readReal(t, "zoo")
	if d.Inputs[0].Name != "Hair" || d.Output.Name != "Type" {
		t.Fatalf("first input %q output %q", d.Inputs[0].Name, d.Output.Name)
	}
	// Declared order {0,1}: the first row's value 1 has declared code 1 ...
	if d.X[0][0] != 1 {
		t.Errorf("declared-order code of Hair in row 0 = %v, want 1", d.X[0][0])
	}
	// ... and first-appearance code 0, as pandas.factorize gives.
	fa, labels := d.FirstAppearanceCodes()
	if fa[0][0] != 0 || !reflect.DeepEqual(labels[0], []string{"1", "0"}) {
		t.Errorf("first-appearance Hair code %v labels %v, want 0 and [1 0]", fa[0][0], labels[0])
	}
	nominal := 0
	for _, a := range d.Inputs {
		if a.Nominal() {
			nominal++
		}
	}
	if nominal != 16 {
		t.Errorf("%d nominal inputs, want 16", nominal)
	}
}

func TestRealMissingRows(t *testing.T) {
	for _, c := range []struct {
		name           string
		missing, cells int
	}{{"dermatology", 8, 8}, {"hepatitis", 75, 167}} {
		d := readReal(t, c.name)
		if got := len(d.MissingRows()); got != c.missing {
			t.Errorf("%s: %d incomplete rows, want %d", c.name, got, c.missing)
		}
		complete, kept := d.CompleteRows()
		if complete.Rows() != d.Rows()-c.missing || len(kept) != complete.Rows() {
			t.Errorf("%s: %d complete rows", c.name, complete.Rows())
		}
		if s := Summarize(d, mustLookup(t, c.name)); s.MissingRows != c.missing || s.MissingCells != c.cells {
			t.Errorf("%s: summary missing %d rows %d cells", c.name, s.MissingRows, s.MissingCells)
		}
	}
}

func TestRealIntegerLiterals(t *testing.T) {
	derm := readReal(t, "dermatology")
	for _, a := range derm.Inputs {
		if !a.IntegerLiterals || a.Type != "integer" {
			t.Errorf("dermatology %s: IntegerLiterals %v type %s", a.Name, a.IntegerLiterals, a.Type)
		}
	}
	wine := readReal(t, "wine")
	want := map[string]bool{"Alcohol": false, "MalicAcid": false, "Magnesium": true, "Proline": true, "OD280/OD315": false}
	for _, a := range wine.Inputs {
		if w, ok := want[a.Name]; ok && a.IntegerLiterals != w {
			t.Errorf("wine %s: IntegerLiterals %v, want %v", a.Name, a.IntegerLiterals, w)
		}
	}
	// ring writes whole numbers as "849.0": not integer literals.
	for _, a := range readReal(t, "ring").Inputs {
		if a.IntegerLiterals {
			t.Errorf("ring %s: IntegerLiterals true for values like 849.0", a.Name)
		}
	}
}

func TestRealOtherDetails(t *testing.T) {
	sa := readReal(t, "saheart")
	if sa.Output.Name != "Chd" || sa.Inputs[4].Name != "Famhist" || !reflect.DeepEqual(sa.Inputs[4].Domain, []string{"Present", "Absent"}) {
		t.Errorf("saheart: output %q, input 4 %+v", sa.Output.Name, sa.Inputs[4])
	}
	if sa.X[0][4] != 0 || sa.X[1][4] != 1 {
		t.Errorf("saheart Famhist codes %v %v, want 0 (Present) 1 (Absent)", sa.X[0][4], sa.X[1][4])
	}
	w := readReal(t, "wine")
	if w.X[0][7] != 0.28 || w.Inputs[11].Name != "OD280/OD315" || w.Inputs[0].Min != 11.0 || w.Inputs[0].Max != 14.9 {
		t.Errorf("wine: x[0][7]=%v input 11 %q range %v..%v", w.X[0][7], w.Inputs[11].Name, w.Inputs[0].Min, w.Inputs[0].Max)
	}
	p := readReal(t, "pima")
	if !reflect.DeepEqual(p.Classes, []string{"tested_negative", "tested_positive"}) || p.Y[0] != 1 {
		t.Errorf("pima classes %v first label %d", p.Classes, p.Y[0])
	}
}

// TestRealFetchFromMirror loads all ten datasets through the Fetcher with
// the shared directory as mirror into an empty cache, then again from the
// cache.
func TestRealFetchFromMirror(t *testing.T) {
	dir := sharedtest.Require(t, "datasets/raw")
	f := &Fetcher{CacheDir: t.TempDir(), Mirror: dir, BaseURL: "http://127.0.0.1:1/unreachable"}
	var rows []Summary
	for _, name := range Names() {
		d, err := f.Load(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, Summarize(d, mustLookup(t, name)))
	}
	f.Mirror = filepath.Join(t.TempDir(), "empty")
	for _, name := range Names() {
		if _, err := f.Load(context.Background(), name); err != nil {
			t.Fatalf("cache hit for %s: %v", name, err)
		}
	}
	var buf bytes.Buffer
	if err := WriteSummaryTable(&buf, rows); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	t.Log("\n" + out)
	for _, want := range []string{"4,597", "4,601", "75 rows with missing values (167 cells)", "8 rows with missing values", "Text/Email"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary table lacks %q", want)
		}
	}
	if strings.Contains(out, "registry mismatch") {
		t.Errorf("registry mismatch in summary:\n%s", out)
	}
}

func mustLookup(t *testing.T, name string) Info {
	t.Helper()
	info, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// BenchmarkReadKEELSpambase measures reading the largest file (1.4 MB,
// 4597×57) from memory.
func BenchmarkReadKEELSpambase(b *testing.B) {
	p := sharedtest.Require(b, "datasets/raw/spambase.dat")
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadKEEL(bytes.NewReader(data), "spambase", p); err != nil {
			b.Fatal(err)
		}
	}
}
