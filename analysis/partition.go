package analysis

import "github.com/fgrtbench/fgrtbench/paper"

// SamePP is the distance (percentage points) under which FGRT and FGRT*
// count as unchanged: the paper compares values printed with two decimals.
const SamePP = 0.005

// PartitionEffect is the effect of partition optimisation (FGRT* against
// FGRT) under one protocol, over the datasets with both cells: how many
// improved, stayed within SamePP or got worse, and the mean difference.
// The paper's counts are over the same datasets where the paper prints
// both values (paper protocol, the paper's files only). The partition
// table and the partition-impact figure print these.
type PartitionEffect struct {
	Protocol  string `json:"protocol"`
	Datasets  int    `json:"datasets"`
	Improved  int    `json:"improved"`
	Unchanged int    `json:"unchanged"`
	Worse     int    `json:"worse"`
	// MeanDiff is the mean of FGRT* minus FGRT accuracy (a fraction).
	MeanDiff float64 `json:"mean_diff"`
	// PaperDatasets counts the datasets with the paper's two values;
	// PaperImproved, PaperUnchanged and PaperWorse tally them.
	PaperDatasets  int `json:"paper_datasets"`
	PaperImproved  int `json:"paper_improved"`
	PaperUnchanged int `json:"paper_unchanged"`
	PaperWorse     int `json:"paper_worse"`
	// Pairs are those datasets in the analysis's order with FGRT's and
	// FGRT*'s accuracy: the bars of the partition-impact figure. (Not in
	// analysis.json, whose cells hold the same values.)
	Pairs []PartitionPair `json:"-"`
}

// PartitionPair is one dataset's accuracy with the default partitions
// (fgrt) and the optimised ones (fgrt-opt), and their difference
// (Optimised − Default, a fraction). Where the paper prints both values
// comparably (paper protocol, the paper's file), Paper is set and
// PaperDefault, PaperOptimised and PaperDiff hold them (percent).
type PartitionPair struct {
	Dataset                                 string
	Default, Optimised, Diff                float64
	Paper                                   bool
	PaperDefault, PaperOptimised, PaperDiff float64
}

// PairOf returns the pair of a dataset.
func (e PartitionEffect) PairOf(dataset string) (PartitionPair, bool) {
	for _, p := range e.Pairs {
		if p.Dataset == dataset {
			return p, true
		}
	}
	return PartitionPair{}, false
}

// PartitionEffectOf returns the partition effect of a protocol.
func (a *Analysis) PartitionEffectOf(protocol string) (PartitionEffect, bool) {
	for _, p := range a.Partition {
		if p.Protocol == protocol {
			return p, true
		}
	}
	return PartitionEffect{}, false
}

// tally counts a difference in percentage points.
func tally(d float64, improved, unchanged, worse *int) {
	switch {
	case d > SamePP:
		*improved++
	case d < -SamePP:
		*worse++
	default:
		*unchanged++
	}
}

// computePartition pairs each protocol's fgrt and fgrt-opt cells. The mean
// difference accumulates d/n in the cells' order, as the figure always
// did, so its line and legend keep their digits.
func computePartition(a *Analysis) []PartitionEffect {
	var out []PartitionEffect
	for _, p := range a.Protocols {
		def, opt := map[string]float64{}, map[string]float64{}
		var order []string
		for _, c := range FilterProtocol(a.Cells, p) {
			switch c.Method {
			case "fgrt":
				def[c.Dataset] = c.Accuracy
				order = append(order, c.Dataset)
			case "fgrt-opt":
				opt[c.Dataset] = c.Accuracy
			}
		}
		var both []string
		for _, d := range order {
			if _, ok := opt[d]; ok {
				both = append(both, d)
			}
		}
		if len(both) == 0 {
			continue
		}
		e := PartitionEffect{Protocol: p, Datasets: len(both)}
		for _, d := range both {
			pair := PartitionPair{Dataset: d, Default: def[d], Optimised: opt[d], Diff: opt[d] - def[d]}
			e.MeanDiff += pair.Diff / float64(len(both))
			tally(pair.Diff*100, &e.Improved, &e.Unchanged, &e.Worse)
			pa, okA := paper.Accuracy(d, paper.FGRT)
			pb, okB := paper.Accuracy(d, paper.FGRTStar)
			if p == "paper" && okA && okB && a.PaperDataset(d) {
				pair.Paper, pair.PaperDefault, pair.PaperOptimised, pair.PaperDiff = true, pa, pb, pb-pa
				e.PaperDatasets++
				tally(pair.PaperDiff, &e.PaperImproved, &e.PaperUnchanged, &e.PaperWorse)
			}
			e.Pairs = append(e.Pairs, pair)
		}
		out = append(out, e)
	}
	return out
}
