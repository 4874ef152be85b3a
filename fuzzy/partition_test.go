package fuzzy

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestFitPartitionsEachInAnyOrder: fitted in reverse column order (as a
// parallel loop may), the partitions are FitPartitions', and of two bad
// columns the first one's error is reported.
func TestFitPartitionsEachInAnyOrder(t *testing.T) {
	reverse := func(n int, body func(j int)) {
		for j := n - 1; j >= 0; j-- {
			body(j)
		}
	}
	X := [][]float64{{1, 0, 5}, {2, 1, 5}, {3, 2, 6}, {4, 0, 7}, {5, 1, 9}, {6, 2, 9}}
	nominal := []bool{false, true, false}
	want, err := FitPartitions(X, nominal, QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FitPartitionsEach(X, nominal, QuantileStyle, reverse)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("reverse order: %v, %v\nwant %v", got, err, want)
	}
	nan, inf := math.NaN(), math.Inf(1)
	bad := [][]float64{{1, nan, inf}, {2, nan, 5}} // column 1 has no values, column 2 an infinite one
	_, want1 := FitPartitions(bad, make([]bool, 3), QuantileStyle)
	_, got1 := FitPartitionsEach(bad, make([]bool, 3), QuantileStyle, reverse)
	if want1 == nil || got1 == nil || got1.Error() != want1.Error() || !strings.HasPrefix(want1.Error(), "column 1:") {
		t.Errorf("errors: %v, want %v", got1, want1)
	}
}
