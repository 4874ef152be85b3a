package fga

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fgrtbench/fgrtbench/internal/fmath"
)

// individual is one chromosome with its fitness F = 1 - MCC (minimised).
type individual struct {
	genes []int32
	f     float64 // 1 - mcc, what pymoo compares
	mcc   float64
	rules []ruleSpec
}

// gaResult is what a run hands to the model builder.
type gaResult struct {
	best    []int32
	bestMCC float64
	history []float64 // best training MCC of the population after each generation
}

// Random streams: every operation draws from its own PCG stream, keyed by
// generation, kind and index, so the outcome never depends on scheduling.
const (
	streamInit = iota + 1
	streamSelect
	streamMate
)

func rngFor(seed uint64, gen, kind, idx int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(gen)<<32|uint64(kind)<<24|uint64(idx)))
}

// scorer sets the fitness of individuals and may keep state about the
// current population (the evaluator's caches).
type scorer interface {
	evaluate(batch []*individual)
	retain(pop []*individual)
}

// runGA runs pymoo's GA (docs/fidelity.md#fga-genetic-algorithm) over the chromosomes of layout l
// for o.Generations generations.
func runGA(l *layout, o Config, ev scorer) gaResult {
	pop := initialPopulation(l, o)
	ev.evaluate(pop)
	sortByFitness(pop) // pymoo sorts the initial population too
	ev.retain(pop)

	res := gaResult{}
	bestF, bestMCC := math.Inf(1), 0.0
	var bestGenes []int32
	stale := 0
	track := func() bool {
		res.history = append(res.history, pop[0].mcc)
		if o.Patience == 0 {
			return false
		}
		// ex-fuzzy >= 2026-04: the incumbent moves only on an improvement
		// larger than MinDelta; stop after Patience stale generations.
		if bestGenes == nil || pop[0].f < bestF-o.MinDelta {
			bestF, bestMCC, bestGenes = pop[0].f, pop[0].mcc, slices.Clone(pop[0].genes)
			stale = 0
		} else {
			stale++
		}
		return stale >= o.Patience
	}
	stop := track()
	for gen := 1; gen < o.Generations && !stop; gen++ {
		off := mate(pop, l, o, gen)
		ev.evaluate(off)
		merged := append(append(make([]*individual, 0, len(pop)+len(off)), pop...), off...)
		sortByFitness(merged)
		pop = merged[:o.Population]
		ev.retain(pop)
		stop = track()
	}
	if o.Patience == 0 {
		// Paper-era ex-fuzzy: pymoo.minimize's result, the first argmin of
		// the final population (the best ever seen, by elitism).
		bestMCC, bestGenes = pop[0].mcc, pop[0].genes
	}
	res.best, res.bestMCC = bestGenes, bestMCC
	return res
}

// initialPopulation draws the first generation's chromosomes, each gene
// uniform over its bounds, individual i from its own stream.
func initialPopulation(l *layout, o Config) []*individual {
	pop := make([]*individual, o.Population)
	for i := range pop {
		rng := rngFor(o.Seed, 0, streamInit, i)
		g := make([]int32, l.nVar)
		for j := range g {
			g[j] = l.xl[j] + int32(rng.IntN(int(l.xu[j]-l.xl[j])+1))
		}
		pop[i] = &individual{genes: g}
	}
	return pop
}

// sortByFitness is pymoo's FitnessSurvival: a stable sort by F (parents
// before offspring on ties); the caller keeps the first pop_size.
func sortByFitness(pop []*individual) {
	slices.SortStableFunc(pop, func(a, b *individual) int { return cmp.Compare(a.f, b.f) })
}

// mate produces one generation of offspring: binary tournaments, SBX with
// probability o.CrossoverProb per mating (else copies of the parents),
// polynomial mutation and rounding repair.
func mate(pop []*individual, l *layout, o Config, gen int) []*individual {
	matings := (o.Population + 1) / 2
	sel := rngFor(o.Seed, gen, streamSelect, 0)
	parents := tournament(pop, 2*matings, sel)
	off := make([]*individual, 0, 2*matings)
	for k := 0; k < matings; k++ {
		rng := rngFor(o.Seed, gen, streamMate, k)
		p1, p2 := pop[parents[2*k]].genes, pop[parents[2*k+1]].genes
		c1, c2 := slices.Clone(p1), slices.Clone(p2)
		if rng.Float64() < o.CrossoverProb {
			sbx(p1, p2, c1, c2, l.xl, l.xu, o.SBXEta, rng)
		}
		probVar := math.Min(0.5, 1/float64(l.nVar))
		for _, c := range [][]int32{c1, c2} {
			if rng.Float64() <= 0.9 {
				polynomialMutation(c, l.xl, l.xu, o.MutationEta, probVar, rng)
			}
		}
		off = append(off, &individual{genes: c1}, &individual{genes: c2})
	}
	return off[:o.Population]
}

// tournament returns k winners of binary tournaments between individuals
// drawn from concatenated random permutations (pymoo TournamentSelection
// with comp_by_cv_and_fitness): smaller F wins, ties are decided at random.
func tournament(pop []*individual, k int, rng *rand.Rand) []int {
	need := 2 * k
	cand := make([]int, 0, need+len(pop))
	for len(cand) < need {
		cand = append(cand, rng.Perm(len(pop))...)
	}
	out := make([]int, k)
	for i := range out {
		a, b := cand[2*i], cand[2*i+1]
		switch fa, fb := pop[a].f, pop[b].f; {
		case fa < fb:
			out[i] = a
		case fb < fa:
			out[i] = b
		default:
			if rng.IntN(2) == 0 {
				out[i] = a
			} else {
				out[i] = b
			}
		}
	}
	return out
}

// sbx is pymoo's simulated binary crossover (prob_var 0.5, prob_bin 0.5,
// prob_exch 1) on integer parents. pymoo writes the float children back into
// the integer offspring array, so they are truncated toward zero (numpy's
// float-to-int cast), not rounded; the RoundingRepair that follows sees
// integers already.
func sbx(p1, p2, c1, c2, xl, xu []int32, eta float64, rng *rand.Rand) {
	for j := range p1 {
		if rng.Float64() >= 0.5 {
			continue
		}
		x1, x2 := float64(p1[j]), float64(p2[j])
		lo, hi := float64(xl[j]), float64(xu[j])
		if math.Abs(x1-x2) <= 1e-14 || lo == hi {
			continue
		}
		a, b := sbxPair(x1, x2, lo, hi, eta, rng.Float64(), rng.Float64() < 0.5)
		c1[j], c2[j] = int32(a), int32(b) // truncation toward zero, as numpy's cast
	}
}

// sbxPair computes the two SBX children of one variable from the uniform
// draw u, with exchange decided by exch; both results lie in [lo, hi].
func sbxPair(x1, x2, lo, hi, eta, u float64, exch bool) (float64, float64) {
	y1, y2 := math.Min(x1, x2), math.Max(x1, x2)
	delta := y2 - y1
	betaq := func(beta float64) float64 {
		alpha := 2 - fmath.Pow(beta, -(eta+1))
		if u <= 1/alpha {
			return fmath.Pow(u*alpha, 1/(eta+1))
		}
		return fmath.Pow(1/(2-float64(u*alpha)), 1/(eta+1))
	}
	ch1 := 0.5 * ((y1 + y2) - float64(betaq(1+float64(2*(y1-lo)/delta))*delta))
	ch2 := 0.5 * ((y1 + y2) + float64(betaq(1+float64(2*(hi-y2)/delta))*delta))
	a, b := ch1, ch2
	if x1 >= x2 { // each child starts near its own parent
		a, b = ch2, ch1
	}
	if exch != (x1 > x2) {
		a, b = b, a
	}
	return clampF(a, lo, hi), clampF(b, lo, hi)
}

// polynomialMutation is pymoo's PM on one individual, followed by
// RoundingRepair (np.around: round half to even).
func polynomialMutation(x, xl, xu []int32, eta, probVar float64, rng *rand.Rand) {
	for j := range x {
		if rng.Float64() >= probVar || xl[j] == xu[j] {
			continue
		}
		x[j] = int32(math.RoundToEven(pmValue(float64(x[j]), float64(xl[j]), float64(xu[j]), eta, rng.Float64())))
	}
}

// pmValue mutates one value with the uniform draw u; the result lies in
// [lo, hi].
func pmValue(x, lo, hi, eta, u float64) float64 {
	d1 := (x - lo) / (hi - lo)
	d2 := (hi - x) / (hi - lo)
	pw := 1 / (eta + 1)
	var dq float64
	if u <= 0.5 {
		dq = fmath.Pow(float64(2*u)+float64((1-float64(2*u))*fmath.Pow(1-d1, eta+1)), pw) - 1
	} else {
		dq = 1 - fmath.Pow(float64(2*(1-u))+float64(2*(u-0.5)*fmath.Pow(1-d2, eta+1)), pw)
	}
	return clampF(x+float64(dq*(hi-lo)), lo, hi)
}

func clampF(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// evaluator scores individuals in parallel. It caches per-rule firing
// statistics (keyed by antecedents and membership genes) for the rules of
// the current population, and the fitness of every chromosome seen, so that
// offspring that are near-copies of their parents cost little. Caches hold
// pure functions of their keys, so they never change a result.
type evaluator struct {
	p       *problem
	loops   *spreader
	stats   map[string]*ruleStats
	fitness map[string]float64 // chromosome -> MCC
	free    []*ruleStats       // dropped entries whose buffers newStats reuses
	scratch []*scratch
	keyBuf  []byte
}

// newEvaluator returns an evaluator whose loops run on loops; a worker
// slot's scratch is made when the slot is first used.
func newEvaluator(p *problem, loops *spreader) *evaluator {
	e := &evaluator{p: p, loops: loops, stats: map[string]*ruleStats{}, fitness: map[string]float64{}}
	e.scratch = make([]*scratch, loops.slots())
	return e
}

func (e *evaluator) genomeKey(g []int32) string {
	b := e.keyBuf[:0]
	for _, v := range g {
		b = append(b, byte(uint16(v+1)>>8), byte(v+1))
	}
	e.keyBuf = b
	return string(b)
}

// evaluate sets f for every individual of batch. Rule statistics missing
// from the cache are registered serially and computed lazily, exactly once
// each, by whichever worker first needs them, so one parallel phase covers
// both the rule statistics and the fitness of every individual.
func (e *evaluator) evaluate(batch []*individual) {
	p := e.p
	e.loops.run(len(batch), func(_, i int) {
		batch[i].rules = decodeRules(&p.lay, batch[i].genes)
	})
	var todo []*individual
	var todoKeys []string
	for _, ind := range batch {
		k := e.genomeKey(ind.genes)
		if mcc, ok := e.fitness[k]; ok {
			ind.mcc, ind.f = mcc, 1-mcc
			continue
		}
		todo = append(todo, ind)
		todoKeys = append(todoKeys, k)
		for r := range ind.rules {
			spec := &ind.rules[r]
			if _, ok := e.stats[spec.key]; !ok {
				st := e.newStats()
				st.srcGenes, st.srcSpec = ind.genes, spec
				e.stats[spec.key] = st
			}
		}
	}
	// Duplicated chromosomes within the batch are evaluated once each time
	// they occur; that is cheap (their rule statistics are shared) and keeps
	// the bookkeeping simple. The stats map is only read in this phase.
	e.loops.run(len(todo), func(w, i int) {
		ind := todo[i]
		if e.scratch[w] == nil {
			e.scratch[w] = newScratch(p)
		}
		sc := e.scratch[w]
		sts := make([]*ruleStats, len(ind.rules))
		for r := range ind.rules {
			st := e.stats[ind.rules[r].key]
			st.once.Do(func() {
				computeRuleStats(p, st.srcGenes, st.srcSpec, st, sc)
				st.srcGenes, st.srcSpec = nil, nil
			})
			sts[r] = st
		}
		ind.mcc = evaluate(p, ind.rules, sts, sc, false).mcc
		ind.f = 1 - ind.mcc
	})
	for i, ind := range todo {
		e.fitness[todoKeys[i]] = ind.mcc
	}
}

// newStats returns an empty cache entry, reusing the buffers of one that
// retain dropped.
func (e *evaluator) newStats() *ruleStats {
	if n := len(e.free); n > 0 {
		st := e.free[n-1]
		e.free = e.free[:n-1]
		*st = ruleStats{phi: st.phi, nz: st.nz[:0], classSum: st.classSum}
		return st
	}
	return &ruleStats{phi: make([]float64, e.p.n), classSum: make([]float64, e.p.nClasses)}
}

// retain drops the cached rule statistics no member of pop uses.
func (e *evaluator) retain(pop []*individual) {
	live := map[string]bool{}
	for _, ind := range pop {
		for r := range ind.rules {
			live[ind.rules[r].key] = true
		}
	}
	for k, st := range e.stats {
		if !live[k] {
			e.free = append(e.free, st)
			delete(e.stats, k)
		}
	}
}

// parallelFor runs fn(worker, i) for i in [0, n) on up to workers goroutines.
// Each i is handled exactly once; fn must write only state owned by i or by
// its worker.
func parallelFor(n, workers int, fn func(worker, i int)) {
	if n == 0 {
		return
	}
	if workers <= 1 || n == 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	workers = min(workers, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(w, i)
			}
		}(w)
	}
	wg.Wait()
}
