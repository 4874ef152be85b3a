package artifacts

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/results"
)

// studyShape sizes a generated study like a full reproduction's, scaled
// down: datasets with two to seven classes (their class names the score
// columns), units of several configurations, models with rules,
// partitions and a tree of a few kilobytes.
type studyShape struct {
	units, configs, testRows, rules, nodes int
}

var benchShape = studyShape{units: 200, configs: 3, testRows: 300, rules: 12, nodes: 40}

// studyClasses are the class sets of the generated datasets; their union
// gives the score columns.
var studyClasses = [][]string{{"0", "1"}, {"1", "2", "3"}, {"tested_negative", "tested_positive"},
	{"0", "1", "2", "3", "4", "5", "6", "7"}}

func studyScoreClasses() []string {
	var out []string
	seen := map[string]bool{}
	for _, cs := range studyClasses {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// generatedUnit is unit u of a study of the given shape: its prediction
// sets (every third unit without scores, as RIPPER's) and model records.
func generatedUnit(shape studyShape, u int) ([]PredictionSet, []ModelRecord) {
	rng := rand.New(rand.NewPCG(uint64(u), 7))
	classes := studyClasses[u%len(studyClasses)]
	key := fmt.Sprintf("clean/data%d/method%d#%08x/r0/f%d/s42", u%len(studyClasses), u%5, u*7919, u%10)
	features := []string{"At1", "At2", "At3", "At4", "At5", "At6"}
	var sets []PredictionSet
	var models []ModelRecord
	for c := range shape.configs {
		p := PredictionSet{Key: key, ConfigIndex: c, Classes: classes}
		for i := range shape.testRows {
			p.Rows = append(p.Rows, u%10+10*i)
			p.YTrue = append(p.YTrue, rng.IntN(len(classes)))
			p.YPred = append(p.YPred, rng.IntN(len(classes)))
		}
		// As in a full reproduction: a third of the units score rows by
		// the leaf they fall in (a few vectors, repeated), a third by
		// continuous strengths, a third not at all (RIPPER).
		leaves := make([][]float64, 8)
		for l := range leaves {
			leaves[l] = make([]float64, len(classes))
			n := 1 + rng.IntN(60)
			for k := range leaves[l] {
				leaves[l][k] = float64(rng.IntN(n+1)) / float64(n)
			}
		}
		switch u % 3 {
		case 0:
			for range shape.testRows {
				p.Scores = append(p.Scores, leaves[rng.IntN(len(leaves))])
			}
		case 1:
			for range shape.testRows {
				s := make([]float64, len(classes))
				for k := range s {
					s[k] = rng.Float64()
				}
				p.Scores = append(p.Scores, s)
			}
		}
		sets = append(sets, p)
		m := ModelRecord{Key: key, ConfigIndex: c, ModelHead: learn.ModelHead{Kind: "tree/1", Features: features, Classes: classes,
			Rules: []string{}}}
		for r := range shape.rules {
			m.Rules = append(m.Rules, fmt.Sprintf("IF %s IS Low AND %s <= %v THEN class %s [coverage %.2f, confidence %.2f]",
				features[r%len(features)], features[(r+1)%len(features)], rng.NormFloat64(), classes[r%len(classes)], rng.Float64(), rng.Float64()))
		}
		for f, name := range features {
			for t, term := range []string{"Low", "Medium", "High"} {
				a := rng.Float64()
				tr := []learn.JSONFloat{learn.JSONFloat(a), learn.JSONFloat(a + 0.25), learn.JSONFloat(a + 0.5), learn.JSONFloat(a + 0.75)}
				m.Partitions = append(m.Partitions, Term{TermRef: learn.TermRef{Feature: f, FeatureName: name, Term: t, TermName: term},
					Trapezoid: tr, TrapezoidScaled: tr})
			}
		}
		var tree strings.Builder
		tree.WriteString(`{"n_classes":` + strconv.Itoa(len(classes)) + `,"nodes":[`)
		for n := range shape.nodes {
			if n > 0 {
				tree.WriteByte(',')
			}
			fmt.Fprintf(&tree, `{"leaf":%v,"attribute":%d,"threshold":%v,"distribution":{"per_class":[%d,%d],"total":%v},"label":"a\"b"}`,
				n%2 == 0, n%len(features), rng.NormFloat64(), rng.IntN(50), rng.IntN(50), rng.Float64()*100)
		}
		tree.WriteString(`]}`)
		m.Model = json.RawMessage(tree.String())
		models = append(models, m)
	}
	return sets, models
}

// writeStudy writes the artifacts of a generated study into dir with the
// package's own writer and returns its results.csv rows.
func writeStudy(tb testing.TB, dir string, shape studyShape) []results.Record {
	tb.Helper()
	a, _, err := Open(dir, studyScoreClasses())
	if err != nil {
		tb.Fatal(err)
	}
	var recs []results.Record
	for u := range shape.units {
		sets, models := generatedUnit(shape, u)
		if err := a.Append(sets, models); err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, recordsFor(sets, models)...)
	}
	if err := a.Finish(); err != nil {
		tb.Fatal(err)
	}
	return recs
}

// benchStudy is a generated study's directory, written once per run.
func benchStudy(b *testing.B) (dir string, recs []results.Record, pdata, mdata []byte) {
	dir = b.TempDir()
	recs = writeStudy(b, dir, benchShape)
	var err error
	if pdata, err = os.ReadFile(filepath.Join(dir, PredictionsFile)); err != nil {
		b.Fatal(err)
	}
	if mdata, err = os.ReadFile(filepath.Join(dir, ModelsFile)); err != nil {
		b.Fatal(err)
	}
	return dir, recs, pdata, mdata
}

func BenchmarkReadPredictions(b *testing.B) {
	_, _, pdata, _ := benchStudy(b)
	b.SetBytes(int64(len(pdata)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadPredictions(pdata, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadModels(b *testing.B) {
	_, _, _, mdata := benchStudy(b)
	b.SetBytes(int64(len(mdata)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadModels(mdata, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadArtifacts(b *testing.B) {
	dir, recs, _, _ := benchStudy(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := Read(dir, recs); err != nil {
			b.Fatal(err)
		}
	}
}
