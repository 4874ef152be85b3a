package c45

import (
	"math"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// lnTable caches k*ln(k) for integer weights, the common case without
// missing values; the values are identical to computing them directly.
type lnTable []float64

func newLnTable(n int) lnTable {
	t := make(lnTable, n+1)
	for k := 1; k <= n; k++ {
		x := float64(k)
		t[k] = x * fmath.Log(x)
	}
	return t
}

// lnFunc is Weka's EntropyBasedSplitCrit.lnFunc: x*ln(x), 0 below 1e-6.
func (t lnTable) lnFunc(x float64) float64 {
	if x < 1e-6 {
		return 0
	}
	if k := int(x); float64(k) == x && k < len(t) {
		return t[k]
	}
	return x * fmath.Log(x)
}

// oldEnt is the class entropy of the known instances, in Weka's unnormalised
// form (bits times weight).
func (t lnTable) oldEnt(d *distribution) float64 {
	s := 0.0
	for _, v := range d.perClass {
		s += t.lnFunc(v)
	}
	return (t.lnFunc(d.total) - s) / math.Ln2
}

// newEnt is the weighted class entropy after the split, same units.
func (t lnTable) newEnt(d *distribution) float64 {
	s := 0.0
	for b, bw := range d.perBag {
		row := d.perClassPerBag[b*d.nClasses : (b+1)*d.nClasses]
		for _, v := range row {
			s += t.lnFunc(v)
		}
		s -= t.lnFunc(bw)
	}
	return -s / math.Ln2
}

// infoGain is InfoGainSplitCrit.splitCritValue(bags, totalNoInst, oldEnt):
// the gain on the known instances, scaled by their share of the node weight
// and expressed per unit of known weight (so per unit of node weight).
func infoGainFrom(oldEnt, newEnt, known, nodeTotal float64) float64 {
	unknownRate := (nodeTotal - known) / nodeTotal
	num := (1 - unknownRate) * (oldEnt - newEnt)
	if eq(num, 0) {
		return 0
	}
	return num / known
}

// splitEnt is the split information, unknown instances forming one more bag.
func (t lnTable) splitEnt(d *distribution, nodeTotal float64) float64 {
	s := 0.0
	if gr(d.total, 0) {
		for _, bw := range d.perBag {
			s -= t.lnFunc(bw)
		}
		s -= t.lnFunc(nodeTotal - d.total)
		s += t.lnFunc(nodeTotal)
	}
	return s / math.Ln2
}

// gainRatio is GainRatioSplitCrit.splitCritValue(bags, total, infoGain).
func (t lnTable) gainRatio(d *distribution, nodeTotal, infoGain float64) float64 {
	den := t.splitEnt(d, nodeTotal)
	if eq(den, 0) {
		return 0
	}
	return infoGain / (den / nodeTotal)
}
