package fuzzycart_test

import (
	"maps"
	"testing"

	"github.com/fgrtbench/fgrtbench/baselines/fuzzycart"
)

// withSwitch returns the run's configuration with one more setting.
func withSwitch(r goldenRun, k, v string) goldenRun {
	r.Config = maps.Clone(r.Config)
	if r.Config == nil {
		r.Config = map[string]string{}
	}
	r.Config[k] = v
	return r
}

func maxDepth(m *fuzzycart.Model) int {
	d := 0
	for _, n := range m.Nodes {
		if !n.Removed {
			d = max(d, n.Depth)
		}
	}
	return d
}

// TestSwitches checks each correcting switch against the reference runs of
// testdata/synthetic.json: what it changes, and that it changes only that.
func TestSwitches(t *testing.T) {
	g := readGolden(t, "testdata/synthetic.json")
	var deeperQ1, staleFixed, deepRef int
	for _, c := range g.Cases {
		nClasses := 0
		for _, k := range c.YTrain {
			nClasses = max(nClasses, k+1)
		}
		s := schemaFor(c.Nominal, len(c.XTrain[0]), nClasses)
		majority := func() int {
			count := make([]int, nClasses)
			for _, k := range c.YTrain {
				count[k]++
			}
			best := 0
			for k := range count {
				if count[k] > count[best] {
					best = k
				}
			}
			return best
		}()
		for _, r := range c.Runs {
			if _, sampled := r.Config["sample_for_splits"]; sampled {
				continue
			}
			ref := fitRun(t, r, c.XTrain, c.YTrain, s)
			if maxDepth(ref) > 2 {
				deepRef++
			}
			// fix_max_depth bounds the depth.
			capped := fitRun(t, withSwitch(withSwitch(r, "fix_max_depth", "true"), "max_depth", "2"), c.XTrain, c.YTrain, s)
			if d := maxDepth(capped); d > 2 {
				t.Errorf("%s %v: fix_max_depth=2 grew depth %d", c.Name, r.Config, d)
			}
			// fix_q2 replaces exactly the reference's -1 predictions by the
			// training majority.
			fixed := fitRun(t, withSwitch(r, "fix_q2", "true"), c.XTrain, c.YTrain, s)
			got := fixed.Predict(c.XTest)
			for i, want := range r.TestPred {
				if want == -1 {
					want = majority
					staleFixed++
				}
				if got[i] != want {
					t.Errorf("%s %v: fix_q2 row %d predicts %d, want %d", c.Name, r.Config, i, got[i], want)
					break
				}
			}
			// fix_q1 lets the purity path split below depth 1's children.
			if r.Config["target_metric"] == "purity" && r.Config["apply_ccp_alpha"] == "" {
				if maxDepth(ref) > 2 {
					t.Errorf("%s %v: the purity path (Q1) grew depth %d", c.Name, r.Config, maxDepth(ref))
				}
				if maxDepth(fitRun(t, withSwitch(r, "fix_q1", "true"), c.XTrain, c.YTrain, s)) > 2 {
					deeperQ1++
				}
			}
		}
	}
	if deeperQ1 == 0 || staleFixed == 0 || deepRef == 0 {
		t.Errorf("the cases do not exercise the switches: fix_q1 deeper %d, stale -1 fixed %d, reference deeper than 2: %d", deeperQ1, staleFixed, deepRef)
	}
}
