package analysis

import "github.com/fgrtbench/fgrtbench/results"

// TieTol is the distance under which two mean accuracies count as equal
// (ranks, best marks): summation-order noise, not a difference.
const TieTol = tieTol

const tieTol = 1e-12

// SortDatasets orders dataset names: the paper's ten in its order, others
// alphabetically after them. Every view uses this order.
func SortDatasets(ds []string) { sortDatasets(ds) }

// ProtocolsOf lists the protocols of cells: "paper" first, "clean"
// second, others sorted.
func ProtocolsOf(cells []Cell) []string { return protocolsOf(cells) }

// FilterProtocol returns the cells of one protocol.
func FilterProtocol(cells []Cell, protocol string) []Cell { return filterProtocol(cells, protocol) }

// DatasetsOf lists the datasets of cells in display order.
func DatasetsOf(cells []Cell) []string { return datasetsOf(cells) }

// MethodsOf lists the methods of cells in the presentation's order.
func MethodsOf(cells []Cell, pres results.Presentation) []string { return methodsOf(cells, pres) }

// BaseMethod resolves a results.csv method label to its registry method
// through base (label → method), else the label without its variant suffix.
func BaseMethod(label string, base map[string]string) string { return baseMethod(label, base) }

// PaperColumn returns the paper column a method (variant or not) is
// compared with.
func PaperColumn(method string) (string, bool) { return paperColumn(method) }
