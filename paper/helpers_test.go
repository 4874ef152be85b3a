package paper

// Helpers that only the tests use: no part of the package's API.

// DatasetTable returns a copy of the paper's dataset table in printed order.
func DatasetTable() []DatasetRow { return append([]DatasetRow(nil), datasetTable...) }
