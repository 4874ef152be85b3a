package results

import "sort"

// Representative returns the representative fold of the selected rows of
// one (protocol, dataset, method): the one whose accuracy is the median
// (the lower median of an even count; ties by key, so the choice does not
// depend on row order). ok is false when rows holds no selected row.
func Representative(rows []Record) (rec Record, ok bool) {
	var sel []Record
	for _, r := range rows {
		if r.Selected {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		return Record{}, false
	}
	sort.Slice(sel, func(i, j int) bool {
		if sel[i].Accuracy != sel[j].Accuracy {
			return sel[i].Accuracy < sel[j].Accuracy
		}
		return sel[i].Key < sel[j].Key
	})
	return sel[(len(sel)-1)/2], true
}
