package fga

import (
	"math"
	"testing"
)

// distanceScorer scores a chromosome by its L1 distance to a fixed target:
// a cheap problem for comparing the GA's dynamics with pymoo's.
type distanceScorer struct{ target []int32 }

func (d distanceScorer) evaluate(batch []*individual) {
	for _, ind := range batch {
		f := 0.0
		for j, v := range ind.genes {
			f += math.Abs(float64(v - d.target[j]))
		}
		ind.f, ind.mcc = f, -f
	}
}

func (distanceScorer) retain([]*individual) {}

// TestGADynamicsMatchPymoo runs the GA on a toy integer problem (20 genes in
// [0, 99] with target 37, 10 genes in [-1, 2] with target 1; F = L1
// distance) and compares the mean best F over 200 seeds with pymoo 0.6.1.6's
// GA under ex-fuzzy's settings (SBX prob 0.3 eta 3, PM eta 7, rounding
// repair, no duplicate elimination), also over 200 seeds (seeds 0..199 of
// minimize). The random streams differ, so only the averages are compared,
// within 5% (the standard error of each mean is about 1%).
func TestGADynamicsMatchPymoo(t *testing.T) {
	pymoo := map[int]float64{1: 379.41, 5: 300.7, 10: 223.3, 25: 110.68, 50: 42.02, 100: 11.74}
	var l layout
	l.nVar = 30
	target := make([]int32, 30)
	for j := 0; j < 30; j++ {
		if j < 20 {
			l.xl, l.xu, target[j] = append(l.xl, 0), append(l.xu, 99), 37
		} else {
			l.xl, l.xu, target[j] = append(l.xl, -1), append(l.xu, 2), 1
		}
	}
	const seeds = 200
	mean := map[int]float64{}
	for seed := 0; seed < seeds; seed++ {
		o := DefaultConfig()
		o.Seed = uint64(seed)
		res := runGA(&l, o, distanceScorer{target})
		for g := range pymoo {
			mean[g] += -res.history[g-1] / seeds
		}
	}
	for g, want := range pymoo {
		t.Logf("generation %3d: mean best F %.2f, pymoo %.2f", g, mean[g], want)
		if math.Abs(mean[g]-want) > 0.05*want {
			t.Errorf("generation %d: mean best F %.2f, pymoo %.2f", g, mean[g], want)
		}
	}
}
