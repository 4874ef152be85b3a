package analysis

import (
	"math"

	"github.com/fgrtbench/fgrtbench/paper"
)

// MethodMean is a method's mean accuracy under one protocol: the Mean row
// of the accuracy table and the mean of the paper comparison. The tables
// print these numbers; they compute none of them.
type MethodMean struct {
	Protocol string `json:"protocol"`
	Method   string `json:"method"`
	// Datasets is the number of datasets the method has a cell on, and
	// Accuracy (a fraction) the mean of those cells' accuracies.
	Datasets int     `json:"datasets"`
	Accuracy float64 `json:"accuracy"`
	// Best marks the highest Accuracy of the protocol (within TieTol; a tie
	// marks each tied method): the Mean row's bold.
	Best bool `json:"best"`
	// PaperAccuracy is the mean accuracy over the paper's ten datasets, in
	// the paper's order, when the method has a cell on each of them as the
	// paper's file (nil otherwise): the figure compared with the paper's
	// printed mean.
	PaperAccuracy *float64 `json:"paper_datasets_accuracy,omitempty"`
}

// GapMean is a method's mean protocol gap: paper-protocol minus
// clean-protocol accuracy in percentage points, averaged over the datasets
// on which the method has both cells. It is the protocol-gap table's Mean
// row.
type GapMean struct {
	Method   string  `json:"method"`
	Datasets int     `json:"datasets"`
	GapPP    float64 `json:"gap_pp"`
}

// MeanOf returns a method's mean under a protocol.
func (a *Analysis) MeanOf(protocol, method string) (MethodMean, bool) {
	for _, m := range a.Means {
		if m.Protocol == protocol && m.Method == method {
			return m, true
		}
	}
	return MethodMean{}, false
}

// GapOf returns a method's mean protocol gap.
func (a *Analysis) GapOf(method string) (GapMean, bool) {
	for _, g := range a.GapMeans {
		if g.Method == method {
			return g, true
		}
	}
	return GapMean{}, false
}

// computeMeans gives every protocol's methods (display order) their mean
// accuracy. The sums run over the datasets in DatasetsOf order and divide
// once, the order the tables always used, so the printed digits keep.
func computeMeans(a *Analysis) []MethodMean {
	var out []MethodMean
	paperCells := a.PaperCells()
	for _, p := range a.Protocols {
		cells := FilterProtocol(a.Cells, p)
		ix := map[[2]string]Cell{}
		for _, c := range cells {
			ix[[2]string{c.Dataset, c.Method}] = c
		}
		onPaper := map[[2]string]Cell{}
		for _, c := range FilterProtocol(paperCells, p) {
			onPaper[[2]string{c.Dataset, c.Method}] = c
		}
		datasets := DatasetsOf(cells)
		first := len(out)
		best := math.Inf(-1)
		for _, m := range MethodsOf(cells, a.pres) {
			sum, n := 0.0, 0
			for _, d := range datasets {
				if c, ok := ix[[2]string{d, m}]; ok {
					sum += c.Accuracy
					n++
				}
			}
			if n == 0 {
				continue
			}
			mm := MethodMean{Protocol: p, Method: m, Datasets: n, Accuracy: sum / float64(n)}
			best = math.Max(best, mm.Accuracy)
			psum, all := 0.0, true
			for _, d := range paper.Datasets {
				c, ok := onPaper[[2]string{d, m}]
				if !ok {
					all = false
					break
				}
				psum += c.Accuracy
			}
			if all {
				v := psum / float64(len(paper.Datasets))
				mm.PaperAccuracy = &v
			}
			out = append(out, mm)
		}
		for i := first; i < len(out); i++ {
			out[i].Best = best-out[i].Accuracy <= TieTol
		}
	}
	return out
}

// computeGapMeans averages, per method with cells under both the paper and
// the clean protocol (paper-protocol display order), the gap over the
// datasets that have both cells; empty unless the study ran both.
// ProtocolGap is the gap of one dataset and method: its paper-protocol
// cell's accuracy minus its clean-protocol cell's, in percentage points.
func ProtocolGap(paperCell, cleanCell Cell) float64 {
	return float64((paperCell.Accuracy - cleanCell.Accuracy) * 100)
}

func computeGapMeans(a *Analysis) []GapMean {
	pc, cc := FilterProtocol(a.Cells, "paper"), FilterProtocol(a.Cells, "clean")
	if len(pc) == 0 || len(cc) == 0 {
		return nil
	}
	ix := map[cellKey]Cell{}
	for _, c := range a.Cells {
		ix[cellKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	var out []GapMean
	for _, m := range MethodsOf(pc, a.pres) {
		sum, n := 0.0, 0
		for _, d := range DatasetsOf(a.Cells) {
			p, okP := ix[cellKey{"paper", d, m}]
			c, okC := ix[cellKey{"clean", d, m}]
			if okP && okC {
				sum += ProtocolGap(p, c)
				n++
			}
		}
		if n > 0 {
			out = append(out, GapMean{Method: m, Datasets: n, GapPP: sum / float64(n)})
		}
	}
	return out
}

// PredictiveOf returns a protocol's predictive cells in the order every
// table lists cells: by dataset, then method in display order (Predictive
// itself follows the cells' key order, alphabetical by label). A cell
// without its accuracy cell, which Compute does not make, would still be
// listed, last, rather than dropped.
func (a *Analysis) PredictiveOf(protocol string) []Predictive {
	pred := map[[2]string]Predictive{}
	for _, p := range a.Predictive {
		if p.Protocol == protocol {
			pred[[2]string{p.Dataset, p.Method}] = p
		}
	}
	cells := FilterProtocol(a.Cells, protocol)
	methods := MethodsOf(cells, a.pres)
	var out []Predictive
	for _, d := range DatasetsOf(cells) {
		for _, m := range methods {
			if p, ok := pred[[2]string{d, m}]; ok {
				out = append(out, p)
				delete(pred, [2]string{d, m})
			}
		}
	}
	for _, p := range a.Predictive {
		if _, left := pred[[2]string{p.Dataset, p.Method}]; left && p.Protocol == protocol {
			out = append(out, p)
		}
	}
	return out
}

// ComplexityMean is a method's model complexity under one protocol: each
// figure of its cells (itself a mean over folds) averaged over the
// datasets it has. It is the complexity table's row.
type ComplexityMean struct {
	Protocol           string  `json:"protocol"`
	Method             string  `json:"method"`
	Datasets           int     `json:"datasets"`
	Rules              float64 `json:"rules"`
	AntecedentsPerRule float64 `json:"antecedents_per_rule"`
	RulebaseSize       float64 `json:"rulebase_size"`
	Leaves             float64 `json:"leaves"`
	InternalNodes      float64 `json:"internal_nodes"`
}

// ComplexityOf returns a method's complexity means under a protocol.
func (a *Analysis) ComplexityOf(protocol, method string) (ComplexityMean, bool) {
	for _, c := range a.Complexity {
		if c.Protocol == protocol && c.Method == method {
			return c, true
		}
	}
	return ComplexityMean{}, false
}

// computeComplexity averages each protocol's methods' (display order)
// complexity over their cells, summing in the cells' order and dividing
// once, as the table always did.
func computeComplexity(a *Analysis) []ComplexityMean {
	var out []ComplexityMean
	for _, p := range a.Protocols {
		cells := FilterProtocol(a.Cells, p)
		for _, m := range MethodsOf(cells, a.pres) {
			cm := ComplexityMean{Protocol: p, Method: m}
			for _, c := range cells {
				if c.Method == m {
					cm.Datasets++
					cm.Rules += c.Rules
					cm.AntecedentsPerRule += c.AntecedentsPerRule
					cm.RulebaseSize += c.RulebaseSize
					cm.Leaves += c.Leaves
					cm.InternalNodes += c.InternalNodes
				}
			}
			f := float64(cm.Datasets)
			cm.Rules, cm.AntecedentsPerRule, cm.RulebaseSize = cm.Rules/f, cm.AntecedentsPerRule/f, cm.RulebaseSize/f
			cm.Leaves, cm.InternalNodes = cm.Leaves/f, cm.InternalNodes/f
			out = append(out, cm)
		}
	}
	return out
}
