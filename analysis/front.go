package analysis

import (
	"fmt"
	"sort"
)

// Front is the accuracy–rulebase-size front of one protocol: one panel per
// dataset and, with two datasets or more, a pooled panel.
type Front struct {
	Protocol string       `json:"protocol"`
	Panels   []FrontPanel `json:"panels"`
}

// FrontPanel is one dataset's (or the pooled) points and its Pareto front.
type FrontPanel struct {
	Title string `json:"title"`
	// Dataset is the panel's dataset, "" for the pooled panel.
	Dataset string       `json:"dataset,omitempty"`
	Points  []FrontPoint `json:"points"`
	// Pareto holds the indices into Points of the points no other point
	// dominates (as small and at least as accurate), ordered by size.
	Pareto []int `json:"pareto"`
}

// FrontPoint is one method's selected rows (Swept false) or one sweep
// configuration (Swept true) on a panel.
type FrontPoint struct {
	Method string `json:"method"`
	Swept  bool   `json:"swept"`
	Config string `json:"config,omitempty"`
	// Size is the mean rulebase size, Accuracy the mean test accuracy.
	Size     float64 `json:"size"`
	Accuracy float64 `json:"accuracy"`
}

// Pareto returns the indices of the points no other point dominates (at
// most as large and at least as accurate, one of them strictly), ordered
// by size.
func Pareto(pts []FrontPoint) []int {
	out := []int{}
	for i, p := range pts {
		dominated := false
		for j, q := range pts {
			if j != i && q.Size <= p.Size && q.Accuracy >= p.Accuracy && (q.Size < p.Size || q.Accuracy > p.Accuracy) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		pa, pb := pts[out[a]], pts[out[b]]
		if pa.Size != pb.Size {
			return pa.Size < pb.Size
		}
		return pa.Accuracy < pb.Accuracy
	})
	return out
}

// ComputeFront builds the panels of one protocol from the points: one per
// dataset (in the points' order) and, with two datasets or more, a pooled
// one holding the mean over datasets of each point present on all of them.
func ComputeFront(points []Point, protocol string) Front {
	type id struct {
		method, config string
		swept          bool
	}
	var datasets []string
	byDataset := map[string][]FrontPoint{}
	sum := map[id]*FrontPoint{}
	count := map[id]int{}
	var order []id
	for _, p := range points {
		if p.Protocol != protocol || p.N == 0 {
			continue
		}
		if _, ok := byDataset[p.Dataset]; !ok {
			datasets = append(datasets, p.Dataset)
		}
		fp := FrontPoint{Method: p.Method, Swept: p.Swept, Config: p.Config, Size: p.RulebaseSize, Accuracy: p.Accuracy}
		byDataset[p.Dataset] = append(byDataset[p.Dataset], fp)
		k := id{p.Method, p.Config, p.Swept}
		if sum[k] == nil {
			sum[k] = &FrontPoint{Method: p.Method, Swept: p.Swept, Config: p.Config}
			order = append(order, k)
		}
		sum[k].Size += p.RulebaseSize
		sum[k].Accuracy += p.Accuracy
		count[k]++
	}
	f := Front{Protocol: protocol}
	for _, d := range datasets {
		f.Panels = append(f.Panels, FrontPanel{Title: d, Dataset: d, Points: byDataset[d], Pareto: Pareto(byDataset[d])})
	}
	if len(datasets) >= 2 {
		pooled := FrontPanel{Title: fmt.Sprintf("pooled (mean over %d datasets)", len(datasets))}
		n := float64(len(datasets))
		for _, k := range order {
			if count[k] == len(datasets) {
				p := *sum[k]
				p.Size, p.Accuracy = p.Size/n, p.Accuracy/n
				pooled.Points = append(pooled.Points, p)
			}
		}
		if len(pooled.Points) > 0 {
			pooled.Pareto = Pareto(pooled.Points)
			f.Panels = append(f.Panels, pooled)
		}
	}
	return f
}

// Pooled returns the pooled panel of a front (false when it has none).
func (f Front) Pooled() (FrontPanel, bool) {
	for _, p := range f.Panels {
		if p.Dataset == "" {
			return p, true
		}
	}
	return FrontPanel{}, false
}
