package analysis

import "sort"

// rankOrder returns the indices of methods sorted by average rank, ties in
// the given order: the order the ranks table, the CD diagram and the
// cliques use.
func rankOrder(avgRanks []float64) []int {
	order := make([]int, len(avgRanks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return avgRanks[order[a]] < avgRanks[order[b]] })
	return order
}

// CliqueRanges returns the maximal groups of methods (as index ranges [lo,
// hi] into the rank-sorted order) whose average ranks span less than cd:
// the methods a Nemenyi test cannot tell apart. Single methods are not
// cliques.
func CliqueRanges(sortedRanks []float64, cd float64) [][2]int {
	var out [][2]int
	lastHi := -1
	for i := range sortedRanks {
		j := i
		for j+1 < len(sortedRanks) && sortedRanks[j+1]-sortedRanks[i] < cd {
			j++
		}
		if j > i && j > lastHi {
			out = append(out, [2]int{i, j})
			lastHi = j
		}
	}
	return out
}

// NemenyiCliques lists the cliques of CliqueRanges as method labels, each
// in rank order (best first).
func NemenyiCliques(methods []string, avgRanks []float64, cd float64) [][]string {
	if len(avgRanks) != len(methods) || !(cd > 0) {
		return nil
	}
	order := rankOrder(avgRanks)
	sorted := make([]float64, len(order))
	for i, o := range order {
		sorted[i] = avgRanks[o]
	}
	var out [][]string
	for _, r := range CliqueRanges(sorted, cd) {
		var cl []string
		for _, o := range order[r[0] : r[1]+1] {
			cl = append(cl, methods[o])
		}
		out = append(out, cl)
	}
	return out
}

// nemenyi fills the best mean rank, the methods within the critical
// difference (α = 0.05) of it and the cliques.
func nemenyi(t *Tests) {
	f := t.Friedman
	if len(f.AvgRanks) != len(t.Methods) || len(t.Methods) == 0 {
		return
	}
	best := rankOrder(f.AvgRanks)[0]
	t.Best = t.Methods[best]
	for j, m := range t.Methods {
		if j != best && f.AvgRanks[j]-f.AvgRanks[best] < t.CD05 {
			t.WithinCD05 = append(t.WithinCD05, m)
		}
	}
	t.Cliques = NemenyiCliques(t.Methods, f.AvgRanks, t.CD05)
}
