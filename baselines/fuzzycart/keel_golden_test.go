package fuzzycart_test

import (
	"fmt"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/learn"
)

// TestKEELGolden refits every run of testdata/keel-*.json on the same
// clean fold and requires the reference's tree, predictions and scores,
// and reports the agreement per configuration. (keel-large.json holds the
// defaults and purity on ring and spambase, whose reference fits take
// minutes; keel-small.json every configuration on the other eight.)
func TestKEELGolden(t *testing.T) {
	var g goldenFile
	for _, part := range []string{"testdata/keel-small.json", "testdata/keel-large.json"} {
		g.Cases = append(g.Cases, readGolden(t, part).Cases...)
	}
	plans := map[string]*protocol.Plan{}
	agree := map[string][2]int{}
	for _, c := range g.Cases {
		p := plans[c.Dataset]
		if p == nil {
			p = cleanFolds(t, c.Dataset)
			plans[c.Dataset] = p
		}
		f := &p.Folds[c.Fold]
		xtr, xte := f.Matrices(nil)
		for _, r := range c.Runs {
			key := learn.Values(r.Config).String()
			t.Run(fmt.Sprintf("%s/%s", c.Name, key), func(t *testing.T) {
				m := fitRun(t, r, xtr, f.YTrain, p.Schema)
				a := agree[key]
				if checkRun(t, r, m, xtr, xte) {
					a[0]++
				}
				a[1]++
				agree[key] = a
			})
		}
	}
	for key, a := range agree {
		t.Logf("config {%s}: %d/%d folds identical", key, a[0], a[1])
	}
}
