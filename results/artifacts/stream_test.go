package artifacts

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// chunkWriter records the size of every write.
type chunkWriter struct {
	bytes.Buffer
	sizes []int
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.sizes = append(c.sizes, len(p))
	return c.Buffer.Write(p)
}

// TestWriteModelHeadStreamsTheSameBytes: the streamed head, with the
// model after it, is byte for byte appendModelJSON's line, for records
// whose rules are far larger than flushBytes and for records without
// rules or readable rules (null and left out); the large ones reach the
// writer in pieces of about flushBytes, never as one line.
func TestWriteModelHeadStreamsTheSameBytes(t *testing.T) {
	many := func(n int, f string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf(f, i, strings.Repeat("x", i%40))
		}
		return out
	}
	big := ModelRecord{Key: "clean/big/cart/0/0", ConfigIndex: 2,
		ModelHead:     learn.ModelHead{Kind: "cart", Features: []string{"a", "b\"q"}, Classes: []string{"0", "1"}, Rules: many(30000, "IF x%d <= 0.5 \"%s\" THEN 1")},
		ReadableRules: many(30000, "IF a ≤ %d %s"), ReadableDefault: "ELSE 0", Model: []byte(`{"nodes":[1,2,3]}`)}
	for _, c := range []struct {
		name    string
		r       ModelRecord
		chunked bool
	}{
		{"deep tree", big, true},
		{"no rules", ModelRecord{Key: "k", ModelHead: learn.ModelHead{Kind: "majority"}, Model: []byte(`{"class":1}`)}, false},
		{"no model", ModelRecord{Key: "k", ModelHead: learn.ModelHead{Kind: "x", Rules: []string{}}}, false},
		{"uncompacted model", ModelRecord{Key: "k", ModelHead: learn.ModelHead{Kind: "x", Rules: []string{"r"}}, Model: []byte("{ \"a\" : [1, 2] }")}, false},
	} {
		want, err := appendModelJSON(nil, c.r)
		if err != nil {
			t.Fatal(err)
		}
		var w chunkWriter
		head, at, err := writeModelHead(&w, nil, c.r)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(head)
		if at < len(modelFields) && !modelFields[at].empty(c.r) {
			h, model, err := appendCompactModel(appendMemberKey([]byte(","), modelFields[at].key), c.r.Model)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(h)
			w.Write(model)
		}
		w.WriteString("}\n")
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%s: streamed %d bytes differ from the line's %d", c.name, w.Len(), len(want))
		}
		largest := 0
		for _, n := range w.sizes {
			largest = max(largest, n)
		}
		if c.chunked && (len(w.sizes) < len(want)/flushBytes || largest > flushBytes+200) {
			t.Errorf("%s: %d writes, the largest %d bytes, for a %d-byte line: not streamed", c.name, len(w.sizes), largest, len(want))
		}
	}
}
