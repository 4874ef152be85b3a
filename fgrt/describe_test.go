package fgrt

import (
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestDescribeStaleRoot: a tree whose root predicts -1 (quirk Q2) rebuilds
// from its JSON with that root, and its scores leave the root's rows to no
// class: the suite exempts rows predicted -1.
func TestDescribeStaleRoot(t *testing.T) {
	X := [][]float64{{0}, {0}, {0}, {1}, {1}, {1}, {1}}
	y := []int{0, 0, 0, 1, 1, 1, 1}
	parts := []fuzzy.Partition{{Nominal: true, Min: 0, Max: 1, Terms: []fuzzy.Term{
		{Name: "0", Crisp: true, Category: fuzzy.Category{Value: 0}},
		{Name: "1", Crisp: true, Category: fuzzy.Category{Value: 1}}}}}
	m, err := FitTree(X, y, 2, parts, GrowConfig{MaxRules: 10, MinImprovement: 0.01, Patience: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := learn.Schema{Features: []learn.Feature{{Name: "f", Nominal: true, Categories: []string{"a", "b"}}}, Classes: []string{"no", "yes"}}
	test := [][]float64{{0}, {1}, {7}}
	if got := m.Predict(test); !reflect.DeepEqual(got, []int{0, 1, -1}) {
		t.Fatalf("predictions %v, want [0 1 -1]", got)
	}
	wantScores := [][]float64{{1, 0}, {0, 1}, {0, 0}}
	if got := m.Scores(test); !reflect.DeepEqual(got, wantScores) {
		t.Errorf("scores %v, want %v", got, wantScores)
	}
	data := learntest.Data{Name: "stale root", Schema: s, XTrain: X, YTrain: y, XTest: test}
	for _, err := range learntest.CheckDescription(m, data) {
		t.Error(err)
	}
	d, err := m.Describe(s)
	if err != nil {
		t.Fatal(err)
	}
	wantTerms := []string{"a", "b"}
	if len(d.Partitions) != len(wantTerms) {
		t.Fatalf("%d partition terms, want the %d its nodes use", len(d.Partitions), len(wantTerms))
	}
	for i, pt := range d.Partitions {
		if pt.TermName != wantTerms[i] || pt.Category == nil || float64(*pt.Category) != float64(i) || pt.Trapezoid != nil {
			t.Errorf("partition term %d = %+v, want crisp %q = %d", i, pt, wantTerms[i], i)
		}
	}
}

// TestModelFromJSONRefuses: structurally broken trees are errors.
func TestModelFromJSONRefuses(t *testing.T) {
	cases := map[string]string{
		"no nodes":       `{"num_classes":2,"root_prediction":0,"partitions":[],"nodes":[]}`,
		"bad root class": `{"num_classes":2,"root_prediction":5,"partitions":[],"nodes":[{"parent":-1}]}`,
		"child before":   `{"num_classes":2,"root_prediction":0,"partitions":[{"terms":[{"name":"a","crisp":true}]}],"nodes":[{"parent":-1,"children":[1]},{"parent":1,"depth":1}]}`,
		"unknown term":   `{"num_classes":2,"root_prediction":0,"partitions":[{"terms":[{"name":"a","crisp":true}]}],"nodes":[{"parent":-1,"children":[1]},{"parent":0,"term":3,"depth":1}]}`,
		"orphan":         `{"num_classes":2,"root_prediction":0,"partitions":[{"terms":[{"name":"a","crisp":true}]}],"nodes":[{"parent":-1},{"parent":0,"depth":1}]}`,
		"shapeless term": `{"num_classes":2,"root_prediction":0,"partitions":[{"terms":[{"name":"a"}]}],"nodes":[{"parent":-1}]}`,
		"not json":       `{"num_classes":`,
	}
	for name, raw := range cases {
		if _, err := ModelFromJSON([]byte(raw)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
