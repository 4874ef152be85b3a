package results

import (
	"slices"
	"testing"
)

// TestOrderComparesEachField: two records that differ in one field only
// compare by that field, whatever else the order names.
func TestOrderComparesEachField(t *testing.T) {
	base := Record{Protocol: "p", Dataset: "d", Method: "m", Config: "c", ConfigIndex: 1, Key: "k", Repeat: 1, Fold: 1}
	all := Order{ByProtocol, ByDataset, ByMethod, ByConfig, ByConfigIndex, ByKey, ByRepeat, ByFold}
	for _, c := range []struct {
		field OrderField
		later func(r *Record)
	}{
		{ByProtocol, func(r *Record) { r.Protocol = "q" }},
		{ByDataset, func(r *Record) { r.Dataset = "e" }},
		{ByMethod, func(r *Record) { r.Method = "n" }},
		{ByConfig, func(r *Record) { r.Config = "c2" }},
		{ByConfigIndex, func(r *Record) { r.ConfigIndex = 10 }},
		{ByKey, func(r *Record) { r.Key = "l" }},
		{ByRepeat, func(r *Record) { r.Repeat = 2 }},
		{ByFold, func(r *Record) { r.Fold = 2 }},
	} {
		b := base
		c.later(&b)
		if got := all.Compare(base, b); got != -1 {
			t.Errorf("field %d: Compare(base, later) = %d", c.field, got)
		}
		if got := (Order{c.field}).Compare(b, base); got != 1 {
			t.Errorf("field %d alone: Compare(later, base) = %d", c.field, got)
		}
		others := slices.DeleteFunc(slices.Clone(all), func(f OrderField) bool { return f == c.field })
		if got := others.Compare(base, b); got != 0 {
			t.Errorf("the other fields than %d: Compare = %d", c.field, got)
		}
	}
}

// TestOrderPrecedence: an earlier field decides over every later one, and
// records equal on every field keep their order (stable).
func TestOrderPrecedence(t *testing.T) {
	recs := []Record{
		{Key: "b", Repeat: 0, Fold: 9, Seed: 1},
		{Key: "a", Repeat: 1, Fold: 0, Seed: 2},
		{Key: "a", Repeat: 0, Fold: 5, Seed: 3},
		{Key: "b", Repeat: 0, Fold: 9, Seed: 4},
	}
	for _, c := range []struct {
		order Order
		seeds []int64
	}{
		{Order{ByKey, ByRepeat, ByFold}, []int64{3, 2, 1, 4}},
		{Order{ByRepeat, ByFold, ByKey}, []int64{3, 1, 4, 2}},
		{CanonicalOrder, []int64{3, 2, 1, 4}},
	} {
		got := slices.Clone(recs)
		c.order.Sort(got)
		var seeds []int64
		for _, r := range got {
			seeds = append(seeds, r.Seed)
		}
		if !slices.Equal(seeds, c.seeds) {
			t.Errorf("%v: seeds in order %v, want %v", c.order, seeds, c.seeds)
		}
	}
}
