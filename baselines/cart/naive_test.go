package cart

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// naiveBuild is a direct transcription of sklearn's builder and
// BestSplitter (docs/fidelity.md#cart): one samples array, a fresh
// sort of the node's values for every drawn feature, sklearn's incremental
// criterion update and its in-place two-pointer partition. It is slow and
// simple; the differential test below checks the presorted builder against
// it on random data full of ties, near-ties and constant columns.
func naiveBuild(data *dataset, p Config) *Tree {
	n, d, c := data.n, data.d, data.classes
	b := newBuilder(data, p, nil) // only for rng, features, constantFeatures, impurityOf
	maxDepth := p.MaxDepth
	if maxDepth == 0 {
		maxDepth = math.MaxInt32
	}
	minSplit := max(p.MinSamplesSplit, 2*p.MinSamplesLeaf)
	samples := make([]int, n)
	for i := range samples {
		samples[i] = i
	}
	x := func(i, f int) float32 { return data.cols[f*n+i] }
	counts := func(s []int) []float64 {
		out := make([]float64, c)
		for _, i := range s {
			out[data.y[i]]++
		}
		return out
	}

	nodeSplit := func(start, end int, impurity float64, nConstant int) (split, int) {
		best := split{pos: end, improvement: math.Inf(-1), impLeft: math.Inf(1), impRight: math.Inf(1)}
		bestProxy := math.Inf(-1)
		features := b.features
		fi, nVisited, nFound, nDrawn := d, 0, 0, 0
		nKnown := nConstant
		nTotal := nKnown
		total := counts(samples[start:end])
		wN := float64(end - start)
		for fi > nTotal && (nVisited < b.maxFeatures || nVisited <= nFound+nDrawn) {
			nVisited++
			fj := b.rng.intn(nDrawn, fi-nFound)
			if fj < nKnown {
				features[nDrawn], features[fj] = features[fj], features[nDrawn]
				nDrawn++
				continue
			}
			fj += nFound
			f := features[fj]
			seg := samples[start:end]
			sort.Slice(seg, func(a, b int) bool { return x(seg[a], f) < x(seg[b], f) })
			if x(seg[len(seg)-1], f) <= x(seg[0], f)+featureThreshold {
				features[fj], features[nTotal] = features[nTotal], features[fj]
				nFound++
				nTotal++
				continue
			}
			fi--
			features[fi], features[fj] = features[fj], features[fi]
			left := make([]float64, c)
			pos := start
			for p := start; p < end; {
				for p+1 < end && x(samples[p+1], f) <= x(samples[p], f)+featureThreshold {
					p++
				}
				p++
				if p >= end || p-start < b.minLeaf || end-p < b.minLeaf {
					continue
				}
				for ; pos < p; pos++ {
					left[data.y[samples[pos]]]++
				}
				right := make([]float64, c)
				for k := range right {
					right[k] = total[k] - left[k]
				}
				wL := float64(p - start)
				wR := wN - wL
				iL, iR := b.impurityOf(left, wL), b.impurityOf(right, wR)
				proxy := -float64(wR*iR) - float64(wL*iL)
				if proxy > bestProxy {
					bestProxy = proxy
					lo, hi := float64(x(samples[p-1], f)), float64(x(samples[p], f))
					thr := lo/2.0 + hi/2.0
					if thr == hi || math.IsInf(thr, 0) {
						thr = lo
					}
					best.feature, best.pos, best.threshold = f, p, thr
				}
			}
		}
		if best.pos < end {
			pEnd, p := end, start
			for p < pEnd {
				if float64(x(samples[p], best.feature)) <= best.threshold {
					p++
				} else {
					pEnd--
					samples[p], samples[pEnd] = samples[pEnd], samples[p]
				}
			}
			if p != best.pos {
				panic("naive: partition size differs from split position")
			}
			left, right := counts(samples[start:best.pos]), counts(samples[best.pos:end])
			wL := float64(best.pos - start)
			wR := wN - wL
			best.impLeft, best.impRight = b.impurityOf(left, wL), b.impurityOf(right, wR)
			best.improvement = (wN / float64(n)) * (impurity - float64(wR/wN*best.impRight) - float64(wL/wN*best.impLeft))
		}
		copy(features[:nKnown], b.constantFeatures[:nKnown])
		copy(b.constantFeatures[nKnown:nKnown+nFound], features[nKnown:nKnown+nFound])
		return best, nTotal
	}

	tree := &Tree{NumClasses: c}
	stack := []stackRecord{{start: 0, end: n, parent: Undefined, impurity: math.Inf(1)}}
	first, maxDepthSeen := true, -1
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m := r.end - r.start
		value := counts(samples[r.start:r.end])
		isLeaf := r.depth >= maxDepth || m < minSplit || m < 2*p.MinSamplesLeaf
		impurity := r.impurity
		if first {
			impurity, first = b.impurityOf(value, float64(m)), false
		}
		isLeaf = isLeaf || impurity <= epsilon
		var sp split
		nConstant := r.nConstant
		if !isLeaf {
			sp, nConstant = nodeSplit(r.start, r.end, impurity, r.nConstant)
			isLeaf = sp.pos >= r.end || sp.improvement+epsilon < p.MinImpurityDecrease
		}
		id := tree.addNode(r.parent, r.isLeft, isLeaf, sp.feature, sp.threshold, impurity, m, value)
		if !isLeaf {
			stack = append(stack,
				stackRecord{start: sp.pos, end: r.end, depth: r.depth + 1, parent: id, impurity: sp.impRight, nConstant: nConstant},
				stackRecord{start: r.start, end: sp.pos, depth: r.depth + 1, parent: id, isLeft: true, impurity: sp.impLeft, nConstant: nConstant})
		}
		maxDepthSeen = max(maxDepthSeen, r.depth)
	}
	tree.MaxDepth = maxDepthSeen
	return tree
}

// TestPresortMatchesNaive compares the presorted builder with naiveBuild on
// random small data sets with coarse values (many ties), values within
// FEATURE_THRESHOLD of each other, globally constant columns and random
// hyperparameters.
func TestPresortMatchesNaive(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		n, d, c := 5+rng.IntN(120), 1+rng.IntN(7), 1+rng.IntN(4)
		X := make([][]float64, n)
		y := make([]int, n)
		kinds := make([]int, d)
		for j := range kinds {
			kinds[j] = rng.IntN(4)
		}
		for i := range X {
			X[i] = make([]float64, d)
			for j := range X[i] {
				switch kinds[j] {
				case 0: // coarse: many ties
					X[i][j] = float64(rng.IntN(4))
				case 1: // constant, with jitter below FEATURE_THRESHOLD
					X[i][j] = 3 + float64(rng.IntN(2))*1e-8
				case 2: // near-ties straddling FEATURE_THRESHOLD
					X[i][j] = float64(rng.IntN(3)) + float64(rng.IntN(3))*6e-8
				default:
					X[i][j] = rng.NormFloat64()
				}
			}
			y[i] = rng.IntN(c)
		}
		p := Config{
			Criterion:       Criterion(rng.IntN(2)),
			MinSamplesSplit: 2 + rng.IntN(5),
			MinSamplesLeaf:  1 + rng.IntN(4),
			MaxDepth:        rng.IntN(6),
			MaxFeatures:     rng.IntN(d + 1),
			RandomState:     rng.Uint32(),
		}
		if rng.IntN(4) == 0 {
			p.MinImpurityDecrease = rng.Float64() * 0.05
		}
		data := prepareClasses(t, X, y, d, c)
		got := build(data, p, nil)
		want := naiveBuild(data, p)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d params %+v: presorted tree differs from the naive builder\n got %+v\nwant %+v", seed, p, got, want)
		}
	}
}

// prepareClasses prepares random test data for c classes, some of which may
// not occur in y.
func prepareClasses(t *testing.T, X [][]float64, y []int, d, c int) *dataset {
	t.Helper()
	s := schemaFor(d, y)
	for len(s.Classes) < c {
		s.Classes = append(s.Classes, "absent")
	}
	data, err := prepare(X, y, s)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
