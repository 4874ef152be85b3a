package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// tQuantile is distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p), the
// t intervals' critical value, on a port of Cephes' inverse incomplete beta
// function (products feeding sums rounded, fmath's Exp, Log, Lgamma and the
// ported regIncBeta), so that it gives linux/amd64's bits on every
// architecture (docs/fidelity.md#portability). A p outside [0, 1] goes to
// gonum, which panics as before.
func tQuantile(p, df float64) float64 {
	const mu, sigma = 0.0, 1.0
	if !(p >= 0 && p <= 1) {
		return distuv.StudentsT{Mu: mu, Sigma: sigma, Nu: df}.Quantile(p)
	}
	if p == 0.5 {
		return mu
	}
	var y float64
	if p > 0.5 {
		t := invRegIncBeta(df/2, 0.5, 2*(1-p))
		y = math.Sqrt(df * (1 - t) / t)
	} else {
		t := invRegIncBeta(df/2, 0.5, 2*p)
		y = -math.Sqrt(df * (1 - t) / t)
	}
	return float64(y*sigma) + mu
}

// invRegIncBeta is the x with I_x(a, b) = y, Cephes' incbi as gonum runs it
// for a <= 1 or b <= 1 (Student's t has b = ½): interval halving from
// x = a/(a+b) until within 1e-6, then up to eight Newton steps on the
// log-density, falling back to finer halving if Newton does not converge,
// with a and b swapped (and y complemented) once the bracket passes 0.75.
// Other shapes start from a normal approximation that this port leaves to
// gonum.
func invRegIncBeta(aa, bb, yy0 float64) float64 {
	if !(aa <= 1 || bb <= 1) || !(yy0 >= 0 && yy0 <= 1) || math.IsNaN(aa) || math.IsNaN(bb) {
		return mathext.InvRegIncBeta(aa, bb, yy0)
	}
	if yy0 == 0 {
		return 0
	}
	if yy0 == 1 {
		return 1
	}
	var d, lgm, yp, di, xt float64
	var i, dir int
	x0, yl, x1, yh := 0.0, 0.0, 1.0, 1.0
	newtonDone := false
	dithresh := 1.0e-6
	swapped := false
	a, b, y0 := aa, bb, yy0
	x := a / (a + b)
	y := regIncBeta(a, b, x)

halve:
	dir = 0
	di = 0.5
	for i = 0; i < 100; i++ {
		if i != 0 {
			x = x0 + float64(di*(x1-x0))
			if x == 1 {
				x = 1 - cephesMachEp
			}
			if x == 0 {
				di = 0.5
				x = x0 + float64(di*(x1-x0))
				if x == 0 {
					goto done
				}
			}
			y = regIncBeta(a, b, x)
			yp = (x1 - x0) / (x1 + x0)
			if math.Abs(yp) < dithresh {
				goto newton
			}
			yp = (y - y0) / y0
			if math.Abs(yp) < dithresh {
				goto newton
			}
		}
		if y < y0 {
			x0, yl = x, y
			switch {
			case dir < 0:
				dir = 0
				di = 0.5
			case dir > 3:
				di = 1 - float64((1-di)*(1-di))
			case dir > 1:
				di = float64(0.5*di) + 0.5
			default:
				di = (y0 - y) / (yh - yl)
			}
			dir++
			if x0 > 0.75 {
				if swapped {
					swapped, a, b, y0 = false, aa, bb, yy0
				} else {
					swapped, a, b, y0 = true, bb, aa, 1-yy0
				}
				x = 1 - x
				y = regIncBeta(a, b, x)
				x0, yl, x1, yh = 0, 0, 1, 1
				goto halve
			}
		} else {
			x1 = x
			if swapped && x1 < cephesMachEp {
				x = 0
				goto done
			}
			yh = y
			switch {
			case dir > 0:
				dir = 0
				di = 0.5
			case dir < -3:
				di *= di
			case dir < -1:
				di *= 0.5
			default:
				di = (y - y0) / (yh - yl)
			}
			dir--
		}
	}
	if x0 >= 1 {
		x = 1 - cephesMachEp
		goto done
	}
	if x <= 0 {
		x = 0
		goto done
	}

newton:
	if newtonDone {
		goto done
	}
	newtonDone = true
	lgm = fmath.Lgamma(a+b) - fmath.Lgamma(a) - fmath.Lgamma(b)
	for i = 0; i < 8; i++ {
		if i != 0 {
			y = regIncBeta(a, b, x)
		}
		switch {
		case y < yl:
			x, y = x0, yl
		case y > yh:
			x, y = x1, yh
		case y < y0:
			x0, yl = x, y
		default:
			x1, yh = x, y
		}
		if x == 1 || x == 0 {
			break
		}
		// The log-density at x, then the Newton step (y - y0)/density.
		d = float64((a-1)*fmath.Log(x)) + float64((b-1)*fmath.Log(1-x)) + lgm
		if d < cephesMinLog {
			goto done
		}
		if d > cephesMaxLog {
			break
		}
		d = fmath.Exp(d)
		d = (y - y0) / d
		xt = x - d
		if xt <= x0 {
			y = (x - x0) / (x1 - x0)
			xt = x0 + float64(0.5*y*(x-x0))
			if xt <= 0 {
				break
			}
		}
		if xt >= x1 {
			y = (x1 - x) / (x1 - x0)
			xt = x1 - float64(0.5*y*(x1-x))
			if xt >= 1 {
				break
			}
		}
		x = xt
		if math.Abs(d/x) < 128*cephesMachEp {
			goto done
		}
	}
	// Newton did not converge: halve again, to a finer threshold.
	dithresh = 256 * cephesMachEp
	goto halve

done:
	if swapped {
		if x <= cephesMachEp {
			return 1 - cephesMachEp
		}
		return 1 - x
	}
	return x
}
