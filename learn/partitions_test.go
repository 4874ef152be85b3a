package learn

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// TestDescribedPartitionsRoundTrip: partitions described, written by
// AppendDescribedPartitions (the same bytes as encoding/json from the
// tags), read back and rebuilt equal the originals; the used terms are
// listed in feature and term order; a term with no shape is refused.
func TestDescribedPartitionsRoundTrip(t *testing.T) {
	parts := []fuzzy.Partition{
		{Min: -1.5, Max: 2, Terms: []fuzzy.Term{
			{Name: "Low", Shape: fuzzy.Trapezoid{A: -1.5, B: -1.5, C: -0.25, D: 0.5}},
			{Name: "High", Shape: fuzzy.Trapezoid{A: -0.25, B: 0.5, C: 2, D: math.Inf(1)}},
		}},
		{Nominal: true, Min: 0, Max: 2, Terms: []fuzzy.Term{
			{Name: "a", Crisp: true, Category: fuzzy.Category{Value: 0}},
			{Name: "b \"quoted\"", Crisp: true, Category: fuzzy.Category{Value: 2}},
		}},
	}
	used := map[[2]int]bool{{1, 1}: true, {0, 0}: true}
	dps, terms := DescribePartitions(parts, Schema{}, used, func(f, t int) string { return parts[f].Terms[t].Name })
	if len(terms) != 2 || terms[0].Feature != 0 || terms[0].Term != 0 || terms[1].Feature != 1 || terms[1].Term != 1 {
		t.Fatalf("used terms %+v, want (0,0) then (1,1)", terms)
	}
	fast, err := AppendDescribedPartitions(nil, dps)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := json.Marshal(dps)
	if err != nil {
		t.Fatal(err)
	}
	if string(fast) != string(slow) {
		t.Fatalf("AppendDescribedPartitions wrote\n%s\nencoding/json\n%s", fast, slow)
	}
	var back []DescribedPartition
	if err := json.Unmarshal(fast, &back); err != nil {
		t.Fatal(err)
	}
	got, err := PartitionsFromDescribed(back)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, parts) {
		t.Errorf("round trip\n%+v\nwant\n%+v", got, parts)
	}
	if b, _ := AppendDescribedPartitions(nil, nil); string(b) != "null" {
		t.Errorf("nil partitions written %s, want null", b)
	}
	back[0].Terms[1].Trapezoid = nil
	if _, err := PartitionsFromDescribed(back); err == nil {
		t.Error("a term neither crisp nor a trapezoid was accepted")
	}
}
