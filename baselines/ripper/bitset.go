package ripper

import "math/bits"

// bitset is a flat coverage vector: bit i of word i/64 is row i. All the
// coverage arithmetic of the learner (rule covers, grow/prune sets, rule-set
// unions) is word-wise AND/OR/popcount on these, which is what makes the
// CatNap-style search cheap.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int) { b[i>>6] |= 1 << uint(i&63) }

func (b bitset) clone() bitset { return append(bitset(nil), b...) }

// count returns the number of set bits.
func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// andCount returns |a ∩ b| without materialising the intersection.
func andCount(a, b bitset) int {
	n := 0
	for i, w := range a {
		n += bits.OnesCount64(w & b[i])
	}
	return n
}

// andOf stores a ∩ b in dst.
func (dst bitset) andOf(a, b bitset) {
	for i := range dst {
		dst[i] = a[i] & b[i]
	}
}

// and intersects dst with a in place.
func (dst bitset) and(a bitset) {
	for i := range dst {
		dst[i] &= a[i]
	}
}

// or unites dst with a in place.
func (dst bitset) or(a bitset) {
	for i := range dst {
		dst[i] |= a[i]
	}
}

// andNot removes a from dst in place.
func (dst bitset) andNot(a bitset) {
	for i := range dst {
		dst[i] &^= a[i]
	}
}

// isEmpty reports whether no bit is set.
func (b bitset) isEmpty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// indices appends the set positions in ascending order to dst.
func (b bitset) indices(dst []int) []int {
	for wi, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			dst = append(dst, wi*64+t)
			w &= w - 1
		}
	}
	return dst
}
