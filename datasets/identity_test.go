package datasets

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// identityBase is a small CSV table; the variants below write the same
// table in other bytes, or another table.
const identityBase = "x,y,class\n1,0.5,a\n2,1.5,b\n3,2.5,a\n4,3.5,b\n"

func loadCSVText(t *testing.T, text string) *Dataset {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := LoadFile(p, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestContentIdentityIgnoresBytes: a byte-order mark, CRLF, trailing blank
// lines, quoting and padding give other file checksums but one table, and
// so one identity; a changed value, label, name or type gives another.
func TestContentIdentityIgnoresBytes(t *testing.T) {
	base := loadCSVText(t, identityBase)
	want := ContentIdentity(base)
	if !strings.HasPrefix(want, ContentPrefix) || Identity(base) != want {
		t.Fatalf("identity %q / %q", want, Identity(base))
	}
	same := []struct{ name, text string }{
		{"byte-order mark", "\ufeff" + identityBase},
		{"CRLF", strings.ReplaceAll(identityBase, "\n", "\r\n")},
		{"no final newline", strings.TrimSuffix(identityBase, "\n")},
		{"trailing blank lines", identityBase + "\n\n"},
		{"quoted numbers", "x,y,class\n\"1\",\"0.5\",a\n2,1.5,\"b\"\n3,2.5,a\n4,3.5,b\n"},
		{"padded cells", "x, y ,class\n1 , 0.5,a\n2,1.5 ,b\n3,2.5,a\n4,3.5,b\n"},
	}
	for _, c := range same {
		d := loadCSVText(t, c.text)
		if got := ContentIdentity(d); got != want {
			t.Errorf("%s: identity %s, want %s (same table)", c.name, got, want)
		}
		if c.name != "CRLF" && d.Checksum == base.Checksum {
			t.Errorf("%s: the file checksum did not change; the case tests nothing", c.name)
		}
	}
	other := []struct{ name, text string }{
		{"a value", strings.Replace(identityBase, "2.5", "2.6", 1)},
		{"a label", strings.Replace(identityBase, "3,2.5,a", "3,2.5,b", 1)},
		{"a column's name", strings.Replace(identityBase, "x,y", "x,z", 1)},
		{"integer literals", strings.Replace(identityBase, "1,0.5", "1.0,0.5", 1)},
		{"a row more", identityBase + "5,4.5,a\n"},
		{"row order", "x,y,class\n2,1.5,b\n1,0.5,a\n3,2.5,a\n4,3.5,b\n"},
	}
	for _, c := range other {
		if got := ContentIdentity(loadCSVText(t, c.text)); got == want {
			t.Errorf("%s changed, but the identity did not", c.name)
		}
	}
}

// TestContentIdentityKeepsTheInMemoryFingerprint: data built in memory was
// identified by this fingerprint before; its identity (and so its unit
// keys) must not change.
func TestContentIdentityKeepsTheInMemoryFingerprint(t *testing.T) {
	d := &Dataset{
		Inputs:  []Attribute{{Name: "a", Type: "real"}, {Name: "colour", Type: "nominal", Domain: []string{"red", "blue"}}},
		Output:  Attribute{Name: "class", Type: "nominal", Domain: []string{"no", "yes"}},
		Classes: []string{"no", "yes"},
		X:       [][]float64{{1.5, 0}, {math.NaN(), 1}, {-2, 1}},
		Y:       []int{0, 1, 1},
	}
	// The fingerprint as bench/study computed it, value by value.
	h := sha256.New()
	str := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) }
	attr := func(a Attribute) {
		str(a.Name)
		str(a.Type)
		fmt.Fprintf(h, "%d %t", len(a.Domain), a.IntegerLiterals)
		for _, v := range a.Domain {
			str(v)
		}
	}
	for _, a := range d.Inputs {
		attr(a)
	}
	attr(d.Output)
	for _, c := range d.Classes {
		str(c)
	}
	var buf [8]byte
	for i, row := range d.X {
		for _, v := range row {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			h.Write(buf[:])
		}
		binary.LittleEndian.PutUint64(buf[:], uint64(d.Y[i]))
		h.Write(buf[:])
	}
	_, _ = io.WriteString(h, "end")
	if want := "content:" + hex.EncodeToString(h.Sum(nil)); ContentIdentity(d) != want {
		t.Errorf("ContentIdentity = %s, want the former fingerprint %s", ContentIdentity(d), want)
	}
}

// TestNumericClassesAsNumpyReadsThem: a class column of numbers is read as
// pandas reads it (int64 when every label is an integer literal, else
// float64) and numpy.unique counts its classes.
func TestNumericClassesAsNumpyReadsThem(t *testing.T) {
	cases := []struct {
		labels  []string
		classes []string
		y       []int
	}{
		{[]string{"1", "1.0", "2", "1"}, []string{"1.0", "2.0"}, []int{0, 0, 1, 0}},
		{[]string{"01", "1", "+2", "2"}, []string{"1", "2"}, []int{0, 0, 1, 1}},
		{[]string{"0", "-0", "3"}, []string{"0", "3"}, []int{0, 0, 1}},
		{[]string{"1.50", "1.5", "1e3"}, []string{"1.5", "1000.0"}, []int{0, 0, 1}},
		{[]string{"1", "2", "10"}, []string{"1", "2", "10"}, []int{0, 1, 2}},
		{[]string{"1", "1.0", "b"}, []string{"1", "1.0", "b"}, []int{0, 1, 2}}, // text: as written
	}
	for _, c := range cases {
		text := "x,class\n"
		for i, l := range c.labels {
			text += fmt.Sprintf("%d,%s\n", i, l)
		}
		for _, quoted := range []bool{false, true} { // the fast path and ReadCSVWith
			body := text
			if quoted {
				body = strings.Replace(text, "x,class", "\"x\",class", 1)
			}
			d := loadCSVText(t, body)
			if !reflect.DeepEqual(d.Classes, c.classes) || !reflect.DeepEqual(d.Y, c.y) || !reflect.DeepEqual(d.Output.Domain, c.classes) {
				t.Errorf("labels %q (quoted header %t): classes %q y %v domain %q, want %q %v", c.labels, quoted, d.Classes, d.Y, d.Output.Domain, c.classes, c.y)
			}
			if err := d.Validate(); err != nil {
				t.Error(err)
			}
		}
	}
	a := loadCSVText(t, "x,class\n1,1\n2,2.0\n3,1.0\n")
	b := loadCSVText(t, "x,class\n1,1.0\n2,2\n3,1\n")
	if ContentIdentity(a) != ContentIdentity(b) {
		t.Error("1/1.0 spellings of one float column give two identities")
	}
}

func TestPythonRepr(t *testing.T) {
	for v, want := range map[float64]string{
		1: "1.0", 1.5: "1.5", 0.1: "0.1", 1e-4: "0.0001", 1e-5: "1e-05", 1e15: "1000000000000000.0",
		1e16: "1e+16", -2.25: "-2.25", 1.5e100: "1.5e+100", math.Copysign(0, -1): "0.0",
	} {
		if got := pythonRepr(v); got != want {
			t.Errorf("pythonRepr(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestRegistryTablesKeepTheirIdentity: each of the ten KEEL files parses to
// the table the registry pins, and Identity gives it the pinned file
// checksum (the identity unit keys carried before), also when the file's
// bytes differ (CRLF, a byte-order mark, trailing blank lines).
func TestRegistryTablesKeepTheirIdentity(t *testing.T) {
	dir := sharedtest.Require(t, "datasets/raw")
	for _, name := range Names() {
		info, _ := Lookup(name)
		data, err := os.ReadFile(filepath.Join(dir, name+".dat"))
		if err != nil {
			t.Fatal(err)
		}
		lf := strings.ReplaceAll(string(data), "\r\n", "\n")
		for _, v := range []struct{ how, text string }{
			{"as distributed", string(data)},
			{"CRLF", strings.ReplaceAll(lf, "\n", "\r\n")},
			{"trailing blank lines", lf + "\n\n"},
		} {
			p := filepath.Join(t.TempDir(), name+".dat")
			if err := os.WriteFile(p, []byte(v.text), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := LoadFile(p, LoadOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, v.how, err)
			}
			if got := ContentIdentity(d); got != info.ContentIdentity {
				t.Errorf("%s %s: content %s, registry pins %s", name, v.how, got, info.ContentIdentity)
			}
			if got := Identity(d); got != info.NormalizedSHA256 {
				t.Errorf("%s %s: identity %s, want the pinned checksum %s", name, v.how, got, info.NormalizedSHA256)
			}
		}
		if ContentOf(info.NormalizedSHA256) != info.ContentIdentity {
			t.Errorf("ContentOf(%s's pinned checksum) = %q", name, ContentOf(info.NormalizedSHA256))
		}
	}
}

func TestContentOf(t *testing.T) {
	wine, _ := Lookup("wine")
	for id, want := range map[string]string{
		"content:abc":           "content:abc",
		wine.NormalizedSHA256:   wine.ContentIdentity,
		strings.Repeat("0", 64): "", // a data file's checksum of an earlier version
	} {
		if got := ContentOf(id); got != want {
			t.Errorf("ContentOf(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestFetchRefusesAnotherTable: a verified file that parses to another
// table than the registry pins (a reader that changed) is refused, not
// given a new identity.
func TestFetchRefusesAnotherTable(t *testing.T) {
	f := testFetcher(t, "")
	info := tinyInfo()
	info.ContentIdentity = ContentPrefix + strings.Repeat("0", 64)
	f.lookup = func(string) (Info, error) { return info, nil }
	if err := os.WriteFile(f.CachePath("tiny"), []byte(tinyKEEL), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := f.Load(context.Background(), "tiny")
	if err == nil || !strings.Contains(err.Error(), "parses to table content:") || !strings.Contains(err.Error(), "registry pins content:0000") {
		t.Errorf("err = %v", err)
	}
}
