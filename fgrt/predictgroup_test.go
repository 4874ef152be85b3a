package fgrt

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// TestPredictGroupMatchesPredict: the models of one FitGroup predicted at
// once give each model's own Predict, with and without clamping, on test
// rows beyond the training range, with missing values and a row of the
// wrong width; groups it cannot share work over are refused.
func TestPredictGroupMatchesPredict(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	for trial := 0; trial < 24; trial++ {
		n, d, c := 60+r.IntN(300), 2+r.IntN(6), 2+r.IntN(3)
		X, y := randomData(uint64(300+trial), n, d, c)
		Xte, _ := randomData(uint64(900+trial), 200, d, c)
		for _, row := range Xte[:40] {
			row[r.IntN(d)] *= 4 // beyond the fitted range
		}
		Xte[41][r.IntN(d)] = math.NaN()
		Xte = append(Xte, make([]float64, d+1))
		clamp := trial%2 == 1
		var ts []learn.Trainer
		for _, p := range paperGrid() {
			o := DefaultConfig()
			o.Clamp = clamp
			o.MaxRules = learn.Values(p).Int("max_rules")
			o.CoverageThreshold = learn.Values(p).Float("coverage_threshold")
			o.MinImprovement = learn.Values(p).Float("min_improvement")
			tr, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			ts = append(ts, tr)
		}
		models, err := ts[0].(*Trainer).FitGroup(ts, X, y, schemaFor(d, c))
		if err != nil {
			t.Fatal(err)
		}
		preds, ok := models[0].(*Model).PredictGroup(models, Xte)
		if !ok {
			t.Fatalf("trial %d: the models of one FitGroup refused", trial)
		}
		for k, m := range models {
			if want := m.Predict(Xte); !reflect.DeepEqual(preds[k], want) {
				t.Fatalf("trial %d (clamp %v), model %d: PredictGroup %v, Predict %v", trial, clamp, k, preds[k], want)
			}
		}
		// Refused: a model of another fit (other partitions), another
		// out-of-range setting, another kind of model.
		other, err := ts[0].Fit(X, y, schemaFor(d, c))
		if err != nil {
			t.Fatal(err)
		}
		flipped := *models[1].(*Model)
		flipped.Clamp = !flipped.Clamp
		for name, group := range map[string][]learn.Model{
			"another fit":    {models[0], other},
			"another clamp":  {models[0], &flipped},
			"another method": {models[0], notFGRT{}},
		} {
			if _, ok := models[0].(*Model).PredictGroup(group, Xte); ok {
				t.Fatalf("trial %d: a group with %s accepted", trial, name)
			}
		}
	}
}

type notFGRT struct{ learn.Model }
