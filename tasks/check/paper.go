package check

import (
	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/gate"
	"github.com/fgrtbench/fgrtbench/results"
)

// paperCompare judges the paper-protocol cells of recs against the
// authors' committed numbers: the report computes the cells, the gate
// judges them (it imports no report).
func paperCompare(recs []results.Record, notes map[string]string) ([]gate.PaperDiff, error) {
	cells, err := analysis.Aggregate(recs)
	if err != nil {
		return nil, err
	}
	var rows []gate.PaperRow
	for _, r := range analysis.PaperCheck(cells) {
		rows = append(rows, gate.PaperRow(r))
	}
	return gate.PaperCompare(rows, notes), nil
}
