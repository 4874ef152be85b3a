package plots

// This file is the only one that knows github.com/sajari/regression: the
// scaling-exponent fit goes through FitLogLog, so replacing the regression
// library is a change to this file alone.

import (
	"fmt"
	"math"

	"github.com/sajari/regression"
)

// MinFitPoints is the fewest points FitLogLog accepts.
const MinFitPoints = 3

// FitLogLog fits log10(y) = intercept + slope*log10(x) by least squares and
// returns slope (the scaling exponent: y ~ x^slope) and intercept. Every x
// and y must be positive and finite; at least three points (the regression
// library's minimum) with two distinct x are needed.
func FitLogLog(x, y []float64) (slope, intercept float64, err error) {
	if len(x) != len(y) {
		return 0, 0, fmt.Errorf("plots: FitLogLog: %d x values but %d y values", len(x), len(y))
	}
	distinct := map[float64]bool{}
	var r regression.Regression
	r.SetObserved("log10 y")
	r.SetVar(0, "log10 x")
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return 0, 0, fmt.Errorf("plots: FitLogLog: point %d (%v, %v) is not positive and finite", i, x[i], y[i])
		}
		distinct[x[i]] = true
		r.Train(regression.DataPoint(math.Log10(y[i]), []float64{math.Log10(x[i])}))
	}
	if len(x) < MinFitPoints {
		return 0, 0, fmt.Errorf("plots: FitLogLog: need at least %d points, have %d", MinFitPoints, len(x))
	}
	if len(distinct) < 2 {
		return 0, 0, fmt.Errorf("plots: FitLogLog: need at least two distinct x values, have %d", len(distinct))
	}
	if err := r.Run(); err != nil {
		return 0, 0, fmt.Errorf("plots: FitLogLog: %v", err)
	}
	return r.Coeff(1), r.Coeff(0), nil
}
