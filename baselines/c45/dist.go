package c45

// distribution is Weka's j48.Distribution: class weights per bag (branch),
// their margins and the total. A leaf uses one bag.
type distribution struct {
	nClasses int
	perBag   []float64
	perClass []float64
	// perClassPerBag is flat: bag b, class k at b*nClasses+k.
	perClassPerBag []float64
	total          float64
}

func newDistribution(nBags, nClasses int) *distribution {
	return &distribution{
		nClasses:       nClasses,
		perBag:         make([]float64, nBags),
		perClass:       make([]float64, nClasses),
		perClassPerBag: make([]float64, nBags*nClasses),
	}
}

func (d *distribution) add(bag, class int, w float64) {
	d.perClassPerBag[bag*d.nClasses+class] += w
	d.perBag[bag] += w
	d.perClass[class] += w
	d.total += w
}

// maxClass is the first class with the largest weight (strictly greater by
// more than the tolerance replaces the incumbent), 0 for an empty one.
func (d *distribution) maxClass() int {
	best, idx := 0.0, 0
	for k, v := range d.perClass {
		if gr(v, best) {
			best, idx = v, k
		}
	}
	return idx
}

// maxBag is the heaviest bag; grOrEq makes the LAST of near-equal bags win,
// as in Weka. -1 when every bag is (numerically) negative.
func (d *distribution) maxBag() int {
	best, idx := 0.0, -1
	for b, v := range d.perBag {
		if grOrEq(v, best) {
			best, idx = v, b
		}
	}
	return idx
}

func (d *distribution) numIncorrect() float64 {
	return d.total - d.perClass[d.maxClass()]
}

// check reports whether at least two bags hold minObj weight or more.
func (d *distribution) check(minObj float64) bool {
	n := 0
	for _, v := range d.perBag {
		if grOrEq(v, minObj) {
			n++
		}
	}
	return n > 1
}

// prob is the class probability over the whole distribution (0 if empty).
func (d *distribution) prob(class int) float64 {
	if !eq(d.total, 0) {
		return d.perClass[class] / d.total
	}
	return 0
}

// probInBag falls back to the whole distribution for an empty bag.
func (d *distribution) probInBag(class, bag int) float64 {
	if gr(d.perBag[bag], 0) {
		return d.perClassPerBag[bag*d.nClasses+class] / d.perBag[bag]
	}
	return d.prob(class)
}

// bagWeight is the share of the distribution's weight in bag b: the
// fraction of an instance with a missing test value sent down branch b.
func (d *distribution) bagWeight(b int) float64 {
	return d.perBag[b] / d.total
}
