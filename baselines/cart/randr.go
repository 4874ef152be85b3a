package cart

import "github.com/fgrtbench/fgrtbench/internal/nprand"

// randRMax is scikit-learn's RAND_R_MAX (0x7FFFFFFF): the exclusive upper
// bound of the draw that seeds the splitter and the modulus base of
// our_rand_r.
const randRMax = 0x7FFFFFFF

// splitterSeed derives the splitter's xorshift state from random_state the
// way Splitter.init does: a fresh numpy RandomState(randomState) draws
// randint(0, RAND_R_MAX). This is the only use of the Mersenne Twister by
// the tree; every later draw comes from the xorshift below.
func splitterSeed(randomState uint32) uint32 {
	return uint32(nprand.New(randomState).Randint(0, randRMax))
}

// xorshift is scikit-learn's our_rand_r: a 32-bit xorshift whose output is
// reduced modulo 2^31. A zero state is replaced by 1 before stepping.
type xorshift struct{ state uint32 }

func (r *xorshift) next() uint32 {
	if r.state == 0 {
		r.state = 1
	}
	s := r.state
	s ^= s << 13
	s ^= s >> 17
	s ^= s << 5
	r.state = s
	return s % (randRMax + 1)
}

// intn is scikit-learn's rand_int(low, high): low + our_rand_r % (high-low).
func (r *xorshift) intn(low, high int) int {
	return low + int(r.next()%uint32(high-low))
}
