package centroid_test

import (
	"testing"

	"github.com/fgrtbench/fgrtbench/examples/centroid"
	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestConformance holds the learner to the contract of package learn.
func TestConformance(t *testing.T) {
	learntest.RunSpec(t, centroid.Spec)
}

// TestCentroids: on two separated clouds the centroids are the class
// means, shrinkage 1 moves them onto the overall mean (every row then
// goes to the first class), and the declared bound refuses shrinkage 2.
func TestCentroids(t *testing.T) {
	X := [][]float64{{0, 0}, {2, 0}, {10, 10}, {12, 10}}
	y := []int{0, 0, 1, 1}
	s := learn.Schema{Features: []learn.Feature{{Name: "a"}, {Name: "b"}}, Classes: []string{"low", "high"}}
	cases := []struct {
		shrinkage float64
		want      [][]float64
		pred      []int
	}{
		{0, [][]float64{{1, 0}, {11, 10}}, []int{0, 1}},
		{0.5, [][]float64{{3.5, 2.5}, {8.5, 7.5}}, []int{0, 1}},
		{1, [][]float64{{6, 5}, {6, 5}}, []int{0, 0}},
	}
	for _, tc := range cases {
		tr, err := centroid.New(centroid.Config{Shrinkage: tc.shrinkage})
		if err != nil {
			t.Fatal(err)
		}
		m, err := tr.Fit(X, y, s)
		if err != nil {
			t.Fatal(err)
		}
		got := m.(*centroid.Model).Centroids
		for k := range tc.want {
			for j := range tc.want[k] {
				if got[k][j] != tc.want[k][j] {
					t.Errorf("shrinkage %v: centroid %d = %v, want %v", tc.shrinkage, k, got[k], tc.want[k])
				}
			}
		}
		if p := m.Predict([][]float64{{0, 1}, {13, 9}}); p[0] != tc.pred[0] || p[1] != tc.pred[1] {
			t.Errorf("shrinkage %v: predictions %v, want %v", tc.shrinkage, p, tc.pred)
		}
	}
	if _, err := centroid.New(centroid.Config{Shrinkage: 2}); err == nil {
		t.Error("shrinkage 2 accepted")
	}
}
