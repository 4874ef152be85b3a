package fgrt

import (
	"github.com/fgrtbench/fgrtbench/learn"
)

var _ learn.GroupPredictor = (*Model)(nil)

// PredictGroup is Predict of every model of ms on X when they are FGRT
// models on m's partitions (the same slice: the models of one FitGroup)
// with m's out-of-range setting: a row's membership of each term some
// model uses is evaluated once, where Predict evaluates it per model and
// node. Memberships are a function of the term and the value, so every
// firing strength, and with it every prediction, is Predict's.
func (m *Model) PredictGroup(ms []learn.Model, X [][]float64) ([][]int, bool) {
	group := make([]*Model, len(ms))
	for k, lm := range ms {
		g, ok := lm.(*Model)
		if !ok || !samePartitions(m, g) || g.Clamp != m.Clamp || !g.validNodes() {
			return nil, false
		}
		group[k] = g
	}
	first, slots := m.termSlots(group)
	mu := make([]float64, first[len(m.Partitions)])
	acts, bounded := make([][]float64, len(group)), make([][]bool, len(group))
	out := make([][]int, len(group))
	for k, g := range group {
		acts[k], bounded[k] = make([]float64, len(g.Nodes)), g.boundedNodes()
		out[k] = make([]int, len(X))
	}
	for r, x := range X {
		if len(x) != len(m.Partitions) {
			for k := range out {
				out[k][r] = -1
			}
			continue
		}
		for _, s := range slots {
			p := &m.Partitions[s.feature]
			v := x[s.feature]
			if m.Clamp {
				v = p.Clamp(v)
			}
			mu[s.at] = p.Membership(s.term, v)
		}
		for k, g := range group {
			out[k][r] = g.decide(groupFiring(g, acts[k], bounded[k], mu, first))
		}
	}
	return out, true
}

// termSlot is a term some model of a group uses: feature, term, and its
// place in a row's memberships.
type termSlot struct{ feature, term, at int }

// termSlots numbers the terms of m's partitions (term t of feature f is
// slot first[f]+t of a row's memberships) and lists those some model of
// the group uses, in feature and term order.
func (m *Model) termSlots(group []*Model) (first []int, slots []termSlot) {
	first = make([]int, len(m.Partitions)+1)
	for f, p := range m.Partitions {
		first[f+1] = first[f] + len(p.Terms)
	}
	used := make([]bool, first[len(m.Partitions)])
	for _, g := range group {
		for _, nd := range g.Nodes[1:] {
			used[first[nd.Feature]+nd.Term] = true
		}
	}
	for f, p := range m.Partitions {
		for t := range p.Terms {
			if used[first[f]+t] {
				slots = append(slots, termSlot{f, t, first[f] + t})
			}
		}
	}
	return first, slots
}

// groupFiring fills act with the firing strength of every node of model g from
// a row's memberships mu (slots numbered by first), as firing does, and
// returns it.
func groupFiring(g *Model, act []float64, bounded []bool, mu []float64, first []int) []float64 {
	act[0] = 1
	for i := 1; i < len(g.Nodes); i++ {
		nd := &g.Nodes[i]
		if act[nd.Parent] == 0 && bounded[i] {
			act[i] = 0 // as firing skips it
			continue
		}
		act[i] = act[nd.Parent] * mu[first[nd.Feature]+nd.Term]
	}
	return act
}

// samePartitions reports whether two models hold the same partition slice.
func samePartitions(a, b *Model) bool {
	return len(a.Partitions) == len(b.Partitions) &&
		(len(a.Partitions) == 0 || &a.Partitions[0] == &b.Partitions[0])
}

// validNodes reports whether every node below the root names a feature
// and term of the partitions and a parent before it (as a fit's and a
// validated reconstruction's nodes do).
func (m *Model) validNodes() bool {
	if len(m.Nodes) == 0 {
		return false
	}
	for i := 1; i < len(m.Nodes); i++ {
		nd := &m.Nodes[i]
		if nd.Feature < 0 || nd.Feature >= len(m.Partitions) || nd.Term < 0 ||
			nd.Term >= len(m.Partitions[nd.Feature].Terms) || nd.Parent < 0 || nd.Parent >= i {
			return false
		}
	}
	return true
}
