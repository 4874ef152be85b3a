package artifacts

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// benchUnit is one unit's artifacts shaped like an FGRT unit of the
// reproduction on a mid-sized dataset: a 1,480-row test fold, three
// classes with scores, four recorded configurations, each with a model of
// 20 rules and a few KB of model JSON.
func benchUnit() ([]PredictionSet, []ModelRecord) {
	rng := rand.New(rand.NewPCG(1, 2))
	classes := []string{"negative", "positive", "unknown"}
	const rows, configs = 1480, 4
	var sets []PredictionSet
	var models []ModelRecord
	for c := 0; c < configs; c++ {
		s := PredictionSet{Key: "clean/ring/fgrt/r0/f3", ConfigIndex: c, Classes: classes}
		for i := 0; i < rows; i++ {
			s.Rows = append(s.Rows, 5*i+c)
			s.YTrue = append(s.YTrue, rng.IntN(3))
			s.YPred = append(s.YPred, rng.IntN(3))
			s.Scores = append(s.Scores, []float64{rng.Float64(), rng.Float64() / 3, 0})
		}
		sets = append(sets, s)
		var rules []string
		var nodes []string
		for r := 0; r < 20; r++ {
			rules = append(rules, fmt.Sprintf("IF A%d IS Low AND A%d IS High THEN class %s [coverage %.4f, confidence %.4f]", r, r+1, classes[r%3], rng.Float64(), rng.Float64()))
			nodes = append(nodes, fmt.Sprintf(`{"feature":%d,"term":%d,"strength":%v,"class_weights":[%v,%v,%v]}`, r, r%3, rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()))
		}
		models = append(models, ModelRecord{Key: s.Key, ConfigIndex: c, ModelHead: learn.ModelHead{Kind: "fgrt.tree/1", Features: []string{"A0", "A1", "A2"}, Classes: classes,
			Rules: rules},
			Model: json.RawMessage(`{"nodes":[` + strings.Join(nodes, ",") + `]}`)})
	}
	return sets, models
}

// BenchmarkUnitEncoder is the cost artifacts add to every unit of a run:
// its predictions' CSV and models' JSON lines, compressed into the unit's
// two gzip members (what the worker does after the unit's fits).
func BenchmarkUnitEncoder(b *testing.B) {
	sets, models := benchUnit()
	header, err := PredictionsHeader(sets[0].Classes)
	if err != nil {
		b.Fatal(err)
	}
	rows := 0
	for _, s := range sets {
		rows += len(s.Rows)
	}
	var size int
	b.ReportAllocs()
	for b.Loop() {
		e := NewUnitEncoder(header)
		for i := range sets {
			if err := e.AddSet(sets[i]); err != nil {
				b.Fatal(err)
			}
			if err := e.AddModel(models[i]); err != nil {
				b.Fatal(err)
			}
		}
		pm, mm, err := e.Members()
		if err != nil {
			b.Fatal(err)
		}
		size = len(pm) + len(mm)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	b.ReportMetric(float64(size), "bytes/unit")
}
