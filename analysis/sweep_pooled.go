package analysis

import "math"

// PooledCI is the half-width of an approximate 95% confidence interval of
// a configuration's pooled mean (the mean over the sweep's datasets): the
// datasets are fixed, each dataset mean varies over its folds × repeats
// (sample variance sd²·n/(n-1) over n rows), so the pooled mean has
// variance Σ sd_d²/(n_d-1) / k² and the half-width is 1.96 of its root.
// NaN (null) when the configuration is missing on some dataset or a
// dataset has fewer than two rows. The sweep figures draw it as a band.
type PooledCI struct {
	Accuracy     float64 `json:"accuracy"`
	RulebaseSize float64 `json:"rulebase_size"`
}

// SelectedPooled is a selected variant shown beside a sweep, present on
// every dataset of the sweep, with its mean over them.
type SelectedPooled struct {
	Method       string  `json:"method"`
	Selection    string  `json:"selection"`
	Accuracy     float64 `json:"accuracy"`
	RulebaseSize float64 `json:"rulebase_size"`
}

// PooledCI95 returns configuration i's half-widths.
func (s Sweep) PooledCI95(i int) PooledCI {
	if s.summarised {
		return s.PooledCIs[i]
	}
	return s.pooledCI(i)
}

// SelectedMeans returns the selected variants on every dataset with their
// pooled means, in the order of Selected.
func (s Sweep) SelectedMeans() []SelectedPooled {
	if s.summarised {
		return s.SelectedPooled
	}
	return s.selectedPooled()
}

func (s Sweep) pooledCI(i int) PooledCI {
	nan := PooledCI{math.NaN(), math.NaN()}
	if _, complete := s.pooled(i); !complete {
		return nan
	}
	k := float64(len(s.Datasets))
	var va, vs float64
	for d := range s.Datasets {
		p := s.Points[d][i]
		if p.N < 2 {
			return nan
		}
		va += p.AccuracyStd * p.AccuracyStd / float64(p.N-1) / (k * k)
		vs += p.RulebaseSizeStd * p.RulebaseSizeStd / float64(p.N-1) / (k * k)
	}
	return PooledCI{1.96 * math.Sqrt(va), 1.96 * math.Sqrt(vs)}
}

func (s Sweep) selectedPooled() []SelectedPooled {
	var order []string
	by := map[string][]Point{}
	for _, p := range s.Selected {
		if _, ok := by[p.Method]; !ok {
			order = append(order, p.Method)
		}
		by[p.Method] = append(by[p.Method], p)
	}
	var out []SelectedPooled
	for _, m := range order {
		ps := by[m]
		if len(ps) != len(s.Datasets) {
			continue // a mean over fewer datasets would not compare
		}
		var acc, size float64
		for _, p := range ps {
			acc += p.Accuracy
			size += p.RulebaseSize
		}
		out = append(out, SelectedPooled{Method: m, Selection: ps[0].Selection, Accuracy: acc / float64(len(ps)), RulebaseSize: size / float64(len(ps))})
	}
	return out
}

// TiedBest reports whether point i of dataset d is the dataset's best
// configuration or ties it (accuracy within TieTol): the sweep table's
// bold and its CSV best column.
func (s Sweep) TiedBest(d, i int) bool {
	best := s.Best()[d]
	return best == i || (best >= 0 && s.Points[d][i].N > 0 && math.Abs(s.Points[d][best].Accuracy-s.Points[d][i].Accuracy) <= TieTol)
}
