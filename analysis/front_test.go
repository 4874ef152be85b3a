package analysis

import (
	"reflect"
	"testing"
)

func TestPareto(t *testing.T) {
	pts := []FrontPoint{
		{Size: 10, Accuracy: 0.8}, // front
		{Size: 5, Accuracy: 0.7},  // front
		{Size: 20, Accuracy: 0.8}, // dominated by the first (larger, not better)
		{Size: 50, Accuracy: 0.9}, // front
		{Size: 40, Accuracy: 0.6}, // dominated
		{Size: 5, Accuracy: 0.65}, // dominated by the second
	}
	if got := Pareto(pts); !reflect.DeepEqual(got, []int{1, 0, 3}) {
		t.Errorf("front %v, want [1 0 3]", got)
	}
}
