package artifacts

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/learn"
)

// gzipFile concatenates one member per text, as the Store writes them.
func gzipFile(t *testing.T, texts ...string) []byte {
	t.Helper()
	var file []byte
	for _, s := range texts {
		m, err := gzipMember([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		file = append(file, m...)
	}
	return file
}

// TestMemberSizeHints checks the guessed size of each member before it is
// decompressed: exact for the files fgrtbench writes, bounded otherwise.
func TestMemberSizeHints(t *testing.T) {
	long := strings.Repeat("0123456789abcdef,", 40_000)
	var foreign bytes.Buffer // a member with a name and a time, as gzip(1) writes
	zw := gzip.NewWriter(&foreign)
	zw.Name, zw.ModTime = "a.csv", time.Unix(1e9, 0)
	zw.Write([]byte(long))
	zw.Close()
	own := gzipFile(t, "x")
	cases := []struct {
		name  string
		data  []byte
		want  []int64 // the members' sizes
		hints []int64 // the guesses, where not want
		bound bool    // a torn tail
	}{
		{"fgrtbench's members", gzipFile(t, "", "a\n", long, "b,c\n", long[:1000]), []int64{0, 2, int64(len(long)), 4, 1000}, nil, false},
		{"one member", gzipFile(t, long), []int64{int64(len(long))}, nil, false},
		// A foreign header is not found again: the guess is the last member's size.
		{"foreign then own", append(foreign.Bytes()[:foreign.Len():foreign.Len()], own...), []int64{int64(len(long)), 1}, []int64{1, 1}, false},
		{"torn tail", gzipFile(t, long, long)[:len(gzipFile(t, long))+40], []int64{int64(len(long))}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.hints == nil {
				c.hints = c.want
			}
			var sizes memberSizes
			k := 0
			torn, err := eachMemberBuffered(c.data, func(hint int) *bytes.Buffer {
				if k < len(c.hints) && int64(hint) != c.hints[k] {
					t.Errorf("member %d: hint %d, want %d", k, hint, c.hints[k])
				}
				return new(bytes.Buffer)
			}, func(m Member, _ *bytes.Buffer) {
				if got := int64(len(m.Data)); got != c.want[k] {
					t.Errorf("member %d: %d bytes, want %d", k, got, c.want[k])
				}
				if h := sizes.hint(c.data, int(m.Start)); h != c.hints[k] {
					t.Errorf("member %d: hint at its start %d, want %d", k, h, c.hints[k])
				}
				k++
			})
			if err != nil || torn != c.bound || k != len(c.want) {
				t.Fatalf("members %d (torn %v, err %v), want %d (torn %v)", k, torn, err, len(c.want), c.bound)
			}
			if c.bound {
				start := len(gzipFile(t, long))
				if h := sizes.hint(c.data, start); h > maxDeflateRatio*int64(len(c.data)-start) {
					t.Errorf("torn member: hint %d beyond deflate's ratio of its %d bytes", h, len(c.data)-start)
				}
			}
		})
	}
}

// TestParseMembersBoundsTextInFlight checks that members are handed out
// only while the text held stays within textInFlight: with a bound below
// one member, a member is decompressed only once the one before is
// parsed, whatever the number of workers, and the results are the same.
func TestParseMembersBoundsTextInFlight(t *testing.T) {
	var texts []string
	for i := range 12 {
		texts = append(texts, fmt.Sprintf("%d,%s\n", i, strings.Repeat("y", 10_000+i)))
	}
	data := gzipFile(t, texts...)
	for _, c := range []struct {
		bound   int
		maxHeld int32 // most members handed out and not yet parsed
	}{{1, 1}, {25_000, 2}} {
		t.Run(fmt.Sprint(c.bound), func(t *testing.T) {
			defer func(b int) { textInFlight = b }(textInFlight)
			textInFlight = c.bound
			var out, most atomic.Int32
			first := func(k int, m Member, r *string) bool {
				n := out.Add(1)
				for {
					if m := most.Load(); n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				return true
			}
			parse := func(k int, m Member, r *string) {
				time.Sleep(2 * time.Millisecond) // a slow parse: the decompressor would run ahead
				*r = string(m.Data)
				out.Add(-1)
			}
			got, torn, _, err := parseMembers(data, 4, first, parse, func(*string) bool { return false })
			if err != nil || torn || len(got) != len(texts) {
				t.Fatalf("%d members, torn %v, err %v", len(got), torn, err)
			}
			for i, r := range got {
				if *r != texts[i] {
					t.Errorf("member %d: %.20q, want %.20q", i, *r, texts[i])
				}
			}
			if m := most.Load(); m > c.maxHeld {
				t.Errorf("%d members held at once, want at most %d", m, c.maxHeld)
			}
		})
	}
}

// TestModelStringArraysCopiedOnce checks that a model's string arrays are
// decoded into slices of their length (collected in the scanner's scratch
// first), not slices grown by appending, whose spare capacity and earlier
// copies a report of deep trees held; and that the scratch keeps no
// string of a decoded record.
func TestModelStringArraysCopiedOnce(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000, 12_345} {
		rec := ModelRecord{Key: "u", ModelHead: testHead(n)}
		line, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		scan := &jsonScan{intern: map[string]string{}}
		got, ok := fastModel(scan, line)
		if !ok || !slices.Equal(got.Rules, rec.Rules) || (got.Rules == nil) != (rec.Rules == nil) {
			t.Fatalf("%d rules: decoded %d (ok %v)", n, len(got.Rules), ok)
		}
		if cap(got.Rules) != len(got.Rules) {
			t.Errorf("%d rules: a slice of capacity %d", n, cap(got.Rules))
		}
		if slices.ContainsFunc(scan.strs[:cap(scan.strs)], func(s string) bool { return s != "" }) {
			t.Errorf("%d rules: the scanner's scratch still holds strings", n)
		}
	}
}

// testHead is a model head with n rules.
func testHead(n int) learn.ModelHead {
	h := learn.ModelHead{Kind: "k", Features: []string{"a", "b"}, Classes: []string{"x", "y", "z"}, Rules: []string{}}
	for i := range n {
		h.Rules = append(h.Rules, fmt.Sprintf("IF a is t%d THEN x", i))
	}
	return h
}
