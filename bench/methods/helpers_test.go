package methods

// Helpers that only the tests use: no part of the package's API.

// PaperColumn returns the column of the paper's tables a method reproduces.
func PaperColumn(base string) (string, bool) {
	mu.RLock()
	defer mu.RUnlock()
	if m, ok := registry[base]; ok && m.PaperColumn != "" {
		return m.PaperColumn, true
	}
	return "", false
}
