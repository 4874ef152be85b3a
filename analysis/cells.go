package analysis

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/paper"
	"github.com/fgrtbench/fgrtbench/results"
)

// Cell aggregates the selected rows of one (protocol, dataset, method): the
// rows with Selected set, one per repeat and fold. Accuracies are fractions;
// standard deviations are population ones (ddof 0) over folds and repeats.
// Complexity figures are means over the same rows.
type Cell struct {
	Protocol, Dataset, Method string
	// N is the number of selected rows (folds × repeats).
	N                   int
	Accuracy            float64
	AccuracyStd         float64
	BalancedAccuracy    float64
	BalancedAccuracyStd float64
	// Rules and Antecedents are counted as a reader counts them;
	// AntecedentsPerRule is the mean over folds of each fold's ratio.
	Rules              float64
	AntecedentsPerRule float64
	RulebaseSize       float64
	// Leaves and InternalNodes are the counts of the authors' driver.
	Leaves        float64
	InternalNodes float64
	FitSeconds    float64
	// Selection lists the selection rules of the rows ("fixed", "test",
	// "inner-cv"), sorted and joined by '+' (normally a single rule).
	Selection string
	// BestOnDataset marks the highest accuracy among the protocol's cells
	// of the dataset (within TieTol; a tie marks each): the bold of the
	// accuracy tables and of the HTML headline table.
	BestOnDataset bool
}

// markBest sets BestOnDataset on every cell.
func markBest(cells []Cell) {
	best := map[[2]string]float64{}
	for _, c := range cells {
		k := [2]string{c.Protocol, c.Dataset}
		if b, ok := best[k]; !ok || c.Accuracy > b {
			best[k] = c.Accuracy
		}
	}
	for i, c := range cells {
		cells[i].BestOnDataset = best[[2]string{c.Protocol, c.Dataset}]-c.Accuracy <= TieTol
	}
}

// TestSelected reports whether some of the cell's numbers come from the
// paper's optimistic rule of choosing the configuration by test accuracy.
func (c Cell) TestSelected() bool {
	for _, s := range strings.Split(c.Selection, "+") {
		if s == "test" {
			return true
		}
	}
	return false
}

type cellKey struct{ protocol, dataset, method string }

func (k cellKey) less(o cellKey) bool {
	if k.protocol != o.protocol {
		return k.protocol < o.protocol
	}
	if k.dataset != o.dataset {
		return k.dataset < o.dataset
	}
	return k.method < o.method
}

// Aggregate reduces results records to one Cell per (protocol, dataset,
// method), using only selected rows. Cells come back sorted by protocol,
// dataset and method name. Two selected rows for the same repeat and fold
// of a cell are an error (a corrupt or double-merged results file).
func Aggregate(recs []results.Record) ([]Cell, error) {
	sel := selectedInOrder(recs)
	keys, group, selections, err := cellGroups(sel)
	if err != nil {
		return nil, err
	}
	sums, err := groupMeanStd(group, cellColumns(sel))
	if err != nil {
		return nil, err
	}
	if len(sums) != len(keys) {
		return nil, fmt.Errorf("analysis: aggregation returned %d groups for %d cells", len(sums), len(keys))
	}
	cells := make([]Cell, len(keys))
	for i, g := range sums {
		k := keys[g.Group]
		cells[i] = Cell{
			Protocol: k.protocol, Dataset: k.dataset, Method: k.method, N: g.N,
			Accuracy: g.Mean[cellColAcc], AccuracyStd: g.Std[cellColAcc],
			BalancedAccuracy: g.Mean[cellColBal], BalancedAccuracyStd: g.Std[cellColBal],
			Rules: g.Mean[cellColRules], AntecedentsPerRule: g.Mean[cellColAntPerRule], RulebaseSize: g.Mean[cellColSize],
			Leaves: g.Mean[cellColLeaves], InternalNodes: g.Mean[cellColInternal], FitSeconds: g.Mean[cellColFit],
			Selection: strings.Join(slices.Sorted(maps.Keys(selections[k])), "+"),
		}
	}
	return cells, nil
}

// selectedInOrder returns the selected records in canonical order (cell,
// repeat, fold, key), so means are reduced in the same order however the
// records were shuffled.
func selectedInOrder(recs []results.Record) []results.Record {
	var sel []results.Record
	for _, r := range recs {
		if r.Selected {
			sel = append(sel, r)
		}
	}
	sort.SliceStable(sel, func(i, j int) bool {
		a, b := sel[i], sel[j]
		ka, kb := cellKey{a.Protocol, a.Dataset, a.Method}, cellKey{b.Protocol, b.Dataset, b.Method}
		if ka != kb {
			return ka.less(kb)
		}
		if a.Repeat != b.Repeat {
			return a.Repeat < b.Repeat
		}
		if a.Fold != b.Fold {
			return a.Fold < b.Fold
		}
		return a.Key < b.Key
	})
	return sel
}

// cellGroups assigns each record of sel (in canonical order) to its cell:
// the cells' keys in order, each record's cell index, and each cell's
// selection rules. Two selected rows for one repeat and fold of a cell
// are an error.
func cellGroups(sel []results.Record) (keys []cellKey, group []int, selections map[cellKey]map[string]bool, err error) {
	group = make([]int, len(sel))
	selections = map[cellKey]map[string]bool{}
	for i, r := range sel {
		k := cellKey{r.Protocol, r.Dataset, r.Method}
		if len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
			selections[k] = map[string]bool{}
		} else if p := sel[i-1]; p.Repeat == r.Repeat && p.Fold == r.Fold {
			return nil, nil, nil, fmt.Errorf("analysis: %s/%s/%s has two selected rows for repeat %d fold %d", r.Protocol, r.Dataset, r.Method, r.Repeat, r.Fold)
		}
		group[i] = len(keys) - 1
		selections[k][r.Selection] = true
	}
	return keys, group, selections, nil
}

// The columns a cell averages, in cellColumns's order.
const (
	cellColAcc = iota
	cellColBal
	cellColRules
	cellColAntPerRule
	cellColSize
	cellColLeaves
	cellColInternal
	cellColFit
	cellCols
)

// cellColumns holds the averaged measures of the records, a column each.
func cellColumns(sel []results.Record) [][]float64 {
	columns := make([][]float64, cellCols)
	for c := range columns {
		columns[c] = make([]float64, len(sel))
	}
	for i, r := range sel {
		columns[cellColAcc][i] = r.Accuracy
		columns[cellColBal][i] = r.BalancedAccuracy
		columns[cellColRules][i] = float64(r.Rules)
		columns[cellColAntPerRule][i] = r.MeanAntecedents()
		columns[cellColSize][i] = float64(r.RulebaseSize)
		columns[cellColLeaves][i] = float64(r.Leaves)
		columns[cellColInternal][i] = float64(r.InternalNodes)
		columns[cellColFit][i] = r.FitSeconds
	}
	return columns
}

// splitVariant splits "cart@text" into ("cart", "text").
func splitVariant(method string) (base, variant string) { return results.SplitVariant(method) }

// BaseMethod resolves a results.csv method label to its registry method:
// through base (the study's label → method map, e.g. fgrt-fixed → fgrt),
// else the label without its variant suffix ("cart@text" → cart).
func BaseMethod(label string, base map[string]string) string {
	if b, ok := base[label]; ok && b != "" {
		return b
	}
	b, _ := splitVariant(label)
	return b
}

// PaperColumn returns the paper column a method (variant or not) is compared with.
func PaperColumn(method string) (string, bool) {
	base, _ := splitVariant(method)
	return paper.ColumnForMethod(base)
}

// TieTol is the distance under which two mean accuracies count as equal
// (ranks, best marks): summation-order noise, not a difference.
const TieTol = 1e-12

func rankOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return len(list)
}

// SortDatasets orders dataset names: the paper's ten in its order, others
// alphabetically after them. Every view uses this order.
func SortDatasets(ds []string) {
	sort.SliceStable(ds, func(i, j int) bool {
		ri, rj := rankOf(paper.Datasets, ds[i]), rankOf(paper.Datasets, ds[j])
		if ri != rj {
			return ri < rj
		}
		return ds[i] < ds[j]
	})
}

func uniqueSorted(cells []Cell, field func(Cell) string, order func([]string)) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cells {
		v := field(c)
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	order(out)
	return out
}

// ProtocolsOf lists the protocols of cells: "paper" first, "clean"
// second, others sorted.
func ProtocolsOf(cells []Cell) []string {
	return uniqueSorted(cells, func(c Cell) string { return c.Protocol }, func(s []string) {
		sort.SliceStable(s, func(i, j int) bool {
			ri, rj := rankOf([]string{"paper", "clean"}, s[i]), rankOf([]string{"paper", "clean"}, s[j])
			if ri != rj {
				return ri < rj
			}
			return s[i] < s[j]
		})
	})
}

// FilterProtocol returns the cells of one protocol.
func FilterProtocol(cells []Cell, protocol string) []Cell {
	var out []Cell
	for _, c := range cells {
		if c.Protocol == protocol {
			out = append(out, c)
		}
	}
	return out
}

// DatasetsOf lists the datasets of cells in display order.
func DatasetsOf(cells []Cell) []string {
	return uniqueSorted(cells, func(c Cell) string { return c.Dataset }, SortDatasets)
}

// MethodsOf lists the methods of cells in the presentation's order.
func MethodsOf(cells []Cell, pres results.Presentation) []string {
	return uniqueSorted(cells, func(c Cell) string { return c.Method }, pres.Sort)
}
