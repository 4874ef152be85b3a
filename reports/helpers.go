package reports

import (
	"github.com/fgrtbench/fgrtbench/analysis"
	"github.com/fgrtbench/fgrtbench/results"
)

// The computed values of a report live in package analysis; these names
// keep the views' code and tests reading as before.
type (
	Cell       = analysis.Cell
	Point      = analysis.Point
	Sweep      = analysis.Sweep
	SeedSpread = analysis.SeedSpread
)

var (
	Aggregate   = analysis.Aggregate
	Points      = analysis.Points
	Sweeps      = analysis.Sweeps
	SeedSpreads = analysis.SeedSpreads
)

const tieTol = analysis.TieTol

type cellKey struct{ protocol, dataset, method string }

func splitVariant(method string) (base, variant string) { return results.SplitVariant(method) }

func paperColumn(method string) (string, bool) { return analysis.PaperColumn(method) }

func rankOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return len(list)
}

type cellIndex struct{ cells map[cellKey]Cell }

func newCellIndex(cells []Cell) cellIndex {
	ix := cellIndex{cells: map[cellKey]Cell{}}
	for _, c := range cells {
		ix.cells[cellKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	return ix
}

func (ix cellIndex) get(protocol, dataset, method string) (Cell, bool) {
	c, ok := ix.cells[cellKey{protocol, dataset, method}]
	return c, ok
}

func filterProtocol(cells []Cell, protocol string) []Cell {
	return analysis.FilterProtocol(cells, protocol)
}

func datasetsOf(cells []Cell) []string { return analysis.DatasetsOf(cells) }

func methodsOf(cells []Cell, pres results.Presentation) []string {
	return analysis.MethodsOf(cells, pres)
}
