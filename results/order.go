package results

import (
	"cmp"
	"slices"
	"strconv"
)

// OrderField is a field of Record that an Order compares.
type OrderField int

// The fields an Order can compare: strings by bytes, numbers by value.
const (
	ByProtocol OrderField = iota
	ByDataset
	ByMethod
	ByConfig
	ByConfigIndex
	ByKey
	ByRepeat
	ByFold
)

// Order is an ordering of records by fields, most significant first.
// Every reader that needs records in a fixed order (the files the runner
// writes, the sums analysis reduces) sorts by an Order, so that the
// comparison is written once and each caller only names its fields.
type Order []OrderField

// CanonicalOrder is the order of results.csv (Sort): by protocol,
// dataset, method, key, repeat, fold, config index.
var CanonicalOrder = Order{ByProtocol, ByDataset, ByMethod, ByKey, ByRepeat, ByFold, ByConfigIndex}

// Compare compares a and b by o's fields in turn: negative when a comes
// first, 0 when they agree on every field.
func (o Order) Compare(a, b Record) int {
	for _, f := range o {
		if c := compareField(f, a, b); c != 0 {
			return c
		}
	}
	return 0
}

func compareField(f OrderField, a, b Record) int {
	switch f {
	case ByProtocol:
		return cmp.Compare(a.Protocol, b.Protocol)
	case ByDataset:
		return cmp.Compare(a.Dataset, b.Dataset)
	case ByMethod:
		return cmp.Compare(a.Method, b.Method)
	case ByConfig:
		return cmp.Compare(a.Config, b.Config)
	case ByConfigIndex:
		return cmp.Compare(a.ConfigIndex, b.ConfigIndex)
	case ByKey:
		return cmp.Compare(a.Key, b.Key)
	case ByRepeat:
		return cmp.Compare(a.Repeat, b.Repeat)
	case ByFold:
		return cmp.Compare(a.Fold, b.Fold)
	}
	panic("results: no order field " + strconv.Itoa(int(f))) // a programming error: the constants above are all
}

// Sort sorts recs by o, stably: records equal on every field keep their
// order.
func (o Order) Sort(recs []Record) {
	slices.SortStableFunc(recs, o.Compare)
}

// Sort orders records canonically (CanonicalOrder). The runner writes
// files in this order at the end of a run so that output does not depend
// on worker scheduling.
func Sort(recs []Record) {
	CanonicalOrder.Sort(recs)
}
