// Package nprand reproduces numpy's legacy RandomState (numpy 1.24) bit for
// bit: the MT19937 generator seeded from an integer, the masked-rejection
// bounded integers, shuffle, permutation, choice without replacement and
// randint. It exists so that Go code can make exactly the random decisions
// that scikit-learn 1.2.1 makes for a given integer random_state.
//
// # Mapping from scikit-learn
//
// sklearn.utils.check_random_state(seed) with an integer seed returns a NEW
// numpy RandomState(seed); in Go that is New(uint32(seed)). Every sklearn
// object that receives random_state=<int> calls check_random_state at each
// split/fit, so each such call corresponds to a fresh New(seed). Passing a
// RandomState instance shares it (its state advances); in Go, pass the same
// *RandomState. random_state=None (OS entropy) has no reproducible
// counterpart and is not supported.
//
// A RandomState is not safe for concurrent use; give each goroutine its own.
package nprand

const (
	stateSize   = 624
	shiftSize   = 397
	matrixA     = 0x9908b0df
	upperMask   = 0x80000000
	lowerMask   = 0x7fffffff
	maxUint32   = 0xffffffff
	seedMultInt = 1812433253
)

// RandomState is numpy's legacy MT19937-backed generator.
type RandomState struct {
	key [stateSize]uint32
	pos int
}

// New returns a generator seeded exactly as numpy.random.RandomState(seed)
// for an integer seed: the reference init_genrand recurrence (numpy's
// mt19937_seed), not init_by_array. The first draw regenerates the block.
func New(seed uint32) *RandomState {
	r := &RandomState{}
	r.Seed(seed)
	return r
}

// Seed re-seeds the generator in place, like RandomState.seed(int).
func (r *RandomState) Seed(seed uint32) {
	r.key[0] = seed
	for i := 1; i < stateSize; i++ {
		prev := r.key[i-1]
		r.key[i] = seedMultInt*(prev^(prev>>30)) + uint32(i)
	}
	r.pos = stateSize
}

// regenerate refills the 624-word block (reference mt19937 "generate").
func (r *RandomState) regenerate() {
	k := &r.key
	mag := func(y uint32) uint32 { return -(y & 1) & matrixA }
	i := 0
	for ; i < stateSize-shiftSize; i++ {
		y := (k[i] & upperMask) | (k[i+1] & lowerMask)
		k[i] = k[i+shiftSize] ^ (y >> 1) ^ mag(y)
	}
	for ; i < stateSize-1; i++ {
		y := (k[i] & upperMask) | (k[i+1] & lowerMask)
		k[i] = k[i+shiftSize-stateSize] ^ (y >> 1) ^ mag(y)
	}
	y := (k[stateSize-1] & upperMask) | (k[0] & lowerMask)
	k[stateSize-1] = k[shiftSize-1] ^ (y >> 1) ^ mag(y)
	r.pos = 0
}

// Uint32 returns the next raw 32-bit output (genrand_int32 / mt19937_next).
func (r *RandomState) Uint32() uint32 {
	if r.pos == stateSize {
		r.regenerate()
	}
	y := r.key[r.pos]
	r.pos++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Uint64 returns numpy's next_uint64: the first 32-bit draw is the high word.
func (r *RandomState) Uint64() uint64 {
	hi := uint64(r.Uint32())
	return hi<<32 | uint64(r.Uint32())
}

// smearMask returns the smallest all-ones bit mask covering max (gen_mask).
func smearMask(max uint64) uint64 {
	m := max
	m |= m >> 1
	m |= m >> 2
	m |= m >> 4
	m |= m >> 8
	m |= m >> 16
	m |= m >> 32
	return m
}

// Interval returns a uniform integer in [0, max] exactly as numpy's
// random_interval: masked rejection sampling on 32-bit draws when max fits in
// 32 bits, on 64-bit draws otherwise. Interval(0) consumes nothing.
func (r *RandomState) Interval(max uint64) uint64 {
	if max == 0 {
		return 0
	}
	mask := smearMask(max)
	if max <= maxUint32 {
		for {
			if v := uint64(r.Uint32()) & mask; v <= max {
				return v
			}
		}
	}
	for {
		if v := r.Uint64() & mask; v <= max {
			return v
		}
	}
}

// Shuffle permutes n items in place as RandomState.shuffle does for a 1-D
// sequence: for i = n-1 down to 1, swap(i, Interval(i)). swap is called even
// when both indices are equal, like numpy.
func (r *RandomState) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i >= 1; i-- {
		j := int(r.Interval(uint64(i)))
		swap(i, j)
	}
}

// ShuffleInts shuffles a slice of ints in place (RandomState.shuffle).
func (r *RandomState) ShuffleInts(a []int) {
	for i := len(a) - 1; i >= 1; i-- {
		j := int(r.Interval(uint64(i)))
		a[i], a[j] = a[j], a[i]
	}
}

// Permutation returns RandomState.permutation(n): arange(n) shuffled.
// n <= 0 gives an empty slice and consumes nothing.
func (r *RandomState) Permutation(n int) []int {
	if n < 0 {
		n = 0
	}
	a := make([]int, n)
	for i := range a {
		a[i] = i
	}
	r.ShuffleInts(a)
	return a
}

// PermutationOf returns RandomState.permutation(array): a shuffled copy of a.
// It consumes the same draws as Permutation(len(a)).
func PermutationOf[T any](r *RandomState, a []T) []T {
	out := append([]T(nil), a...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Choice returns RandomState.choice(n, size, replace=False) (legacy path,
// p=None): the first size entries of a FULL permutation of n, so the
// generator advances as for Permutation(n) whatever size is. size is clamped
// to [0, n] (numpy raises for size > n; callers validate).
func (r *RandomState) Choice(n, size int) []int {
	perm := r.Permutation(n)
	if size < 0 {
		size = 0
	}
	if size > len(perm) {
		size = len(perm)
	}
	return perm[:size:size]
}

// ChoiceOf returns RandomState.choice(a, size, replace=False) for a 1-D
// array a: a[Choice(len(a), size)].
func ChoiceOf[T any](r *RandomState, a []T, size int) []T {
	idx := r.Choice(len(a), size)
	out := make([]T, len(idx))
	for i, k := range idx {
		out[i] = a[k]
	}
	return out
}

// Randint returns RandomState.randint(low, high) for the default int64
// dtype (int32 gives identical values): a uniform integer in [low, high-1]
// by the legacy masked method. high <= low is invalid in numpy (ValueError);
// here it returns low without drawing — validate before calling if that
// matters.
func (r *RandomState) Randint(low, high int64) int64 {
	if high <= low {
		return low
	}
	rng := uint64(high-1) - uint64(low) // closed range width, exact in two's complement
	if rng == 0 {
		return low
	}
	if rng <= maxUint32 {
		if rng == maxUint32 {
			return low + int64(r.Uint32())
		}
		mask := smearMask(rng)
		for {
			if v := uint64(r.Uint32()) & mask; v <= rng {
				return low + int64(v)
			}
		}
	}
	if rng == ^uint64(0) {
		return low + int64(r.Uint64())
	}
	mask := smearMask(rng)
	for {
		if v := r.Uint64() & mask; v <= rng {
			return low + int64(v)
		}
	}
}
