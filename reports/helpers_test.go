package reports

import "sort"

// Helpers that only the tests use: no part of the package's API.

// FactsFromMap turns a key/value map into facts sorted by key (map order
// must not reach the report).
func FactsFromMap(m map[string]string) []Fact {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Fact, len(keys))
	for i, k := range keys {
		out[i] = Fact{k, m[k]}
	}
	return out
}
