package reports

import "github.com/fgrtbench/fgrtbench/analysis"

type cellKey struct{ protocol, dataset, method string }

func rankOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return len(list)
}

// cellIndex finds an analysis's cells by protocol, dataset and method.
type cellIndex struct{ cells map[cellKey]analysis.Cell }

func newCellIndex(cells []analysis.Cell) cellIndex {
	ix := cellIndex{cells: map[cellKey]analysis.Cell{}}
	for _, c := range cells {
		ix.cells[cellKey{c.Protocol, c.Dataset, c.Method}] = c
	}
	return ix
}

func (ix cellIndex) get(protocol, dataset, method string) (analysis.Cell, bool) {
	c, ok := ix.cells[cellKey{protocol, dataset, method}]
	return c, ok
}
