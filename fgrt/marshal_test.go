package fgrt

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestDescribedModelMarshalMatchesReflection checks the hand-written JSON
// against encoding/json's reflection over the same fields (a type without
// the method): omitted zero categories (and -0), nil slices, non-finite
// values, names that need escaping.
func TestDescribedModelMarshalMatchesReflection(t *testing.T) {
	type plain describedModel // same fields and tags, no MarshalJSON
	tr := [4]learn.JSONFloat{-1, 0, 0.25, learn.JSONFloat(math.Inf(1))}
	cases := []describedModel{
		{},
		{NumClasses: 3, RootPrediction: -1, EndedByBreak: true, Clamp: true,
			Partitions: []learn.DescribedPartition{
				{Nominal: false, Min: -2.5, Max: learn.JSONFloat(math.NaN()), Terms: []learn.DescribedTerm{
					{Name: `low <&> "q" \ ` + "\u2028 \xff", Trapezoid: &tr},
					{Name: "mid", Crisp: true, Category: learn.JSONFloat(math.Copysign(0, -1))},
					{Name: "hi", Crisp: true, Category: 2},
				}},
				{Nominal: true},
			},
			Nodes: []describedNode{
				{FuzzyTreeNode: learn.FuzzyTreeNode{Feature: -1, Term: -1, Parent: -1, Children: []int{1, 2}, Class: 2, Coverage: 1e-9},
					Gain: 1e21, ClassWeights: []learn.JSONFloat{0.5, 0, 1}},
				{FuzzyTreeNode: learn.FuzzyTreeNode{Feature: 0, Term: 1, Children: []int{}, Depth: 1}},
				{FuzzyTreeNode: learn.FuzzyTreeNode{Feature: 1, Term: 0, Children: nil, Depth: 1}, ClassWeights: []learn.JSONFloat{}},
			}},
	}
	for i, dm := range cases {
		got, err := json.Marshal(dm)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(plain(dm))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
