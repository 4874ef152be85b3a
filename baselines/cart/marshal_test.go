package cart

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestDescribedTreeMarshalMatchesReflection checks the hand-written JSON
// against encoding/json's reflection over the same fields (a type without
// the method), nil slices and non-finite values included.
func TestDescribedTreeMarshalMatchesReflection(t *testing.T) {
	type plain describedTree // same fields and tags, no MarshalJSON
	cases := []describedTree{
		{},
		{NumClasses: 2, ChildrenLeft: []int{1, -1, -1}, ChildrenRight: []int{2, -1, -1}, Feature: []int{0, -2, -2},
			Threshold: []learn.JSONFloat{0.5, -2, -2}, Impurity: []learn.JSONFloat{0.5, 0, learn.JSONFloat(math.NaN())},
			NodeSamples: []int{10, 4, 6}, MaxDepth: 1,
			Value: [][]learn.JSONFloat{{4, 6}, {4, 0}, {1e-9, learn.JSONFloat(math.Inf(1))}}},
		{NumClasses: 1, ChildrenLeft: []int{}, Value: [][]learn.JSONFloat{nil, {}}},
	}
	for i, dt := range cases {
		got, err := json.Marshal(dt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(plain(dt))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// BenchmarkDescribedTreeMarshal writes a tree of 200,001 nodes (a deep
// tree on large data) as the models artifact does.
func BenchmarkDescribedTreeMarshal(b *testing.B) {
	const n = 200_001
	dt := describedTree{NumClasses: 3, MaxDepth: 40}
	for i := 0; i < n; i++ {
		l, r := 2*i+1, 2*i+2
		if l >= n {
			l, r = Leaf, Leaf
		}
		dt.ChildrenLeft, dt.ChildrenRight = append(dt.ChildrenLeft, l), append(dt.ChildrenRight, r)
		dt.Feature = append(dt.Feature, i%20)
		dt.Threshold = append(dt.Threshold, learn.JSONFloat(float64(i)*0.001-0.5))
		dt.Impurity = append(dt.Impurity, learn.JSONFloat(0.5/float64(i+1)))
		dt.NodeSamples = append(dt.NodeSamples, n-i)
		dt.Value = append(dt.Value, []learn.JSONFloat{learn.JSONFloat(i % 7), 2, learn.JSONFloat(i % 3)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dt.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
