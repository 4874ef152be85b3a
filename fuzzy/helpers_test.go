package fuzzy

// Helpers that only the tests use: no part of the package's API.

// CategoricalPartition is categoricalPartition of col's non-missing values.
func CategoricalPartition(col []float64) (Partition, error) {
	return categoricalPartition(appendFinite(make([]float64, 0, len(col)), col))
}
