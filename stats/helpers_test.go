package stats

import (
	"fmt"
	"math"
)

// Helpers that only the tests use: no part of the package's API.

// NemenyiCD is the critical difference from Demšar's printed table only (the
// form before CriticalDifference): the tests check that CriticalDifference
// equals it wherever the table has q_α.
func NemenyiCD(alpha float64, k, n int) (float64, error) {
	q, err := NemenyiQ(alpha, k)
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, fmt.Errorf("stats: need at least 1 dataset, got %d", n)
	}
	return q * math.Sqrt(float64(k*(k+1))/(6*float64(n))), nil
}
