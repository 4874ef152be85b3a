package cart

// sortKeys sorts keys that hold a value's 32-bit order key above a row
// index in ascending row order, as slices.Sort would order them, with a
// stable least-significant-digit radix sort on the upper 32 bits: keys
// arrive in row order, so a stable sort by value leaves ties in row order.
// It uses tmp (as long as keys) and returns the sorted slice and the
// other, which the caller passes again (they swap roles). A byte that all
// keys share costs no pass, so values of few distinct exponents or signs
// sort in fewer than four.
func sortKeys(keys, tmp []uint64) (sorted, spare []uint64) {
	if len(keys) < 2 {
		return keys, tmp
	}
	var counts [4][256]int
	for _, k := range keys {
		counts[0][byte(k>>32)]++
		counts[1][byte(k>>40)]++
		counts[2][byte(k>>48)]++
		counts[3][byte(k>>56)]++
	}
	tmp = tmp[:len(keys)]
	for d := range counts {
		c := &counts[d]
		if c[byte(keys[0]>>(32+8*d))] == len(keys) {
			continue // one bucket: the order stays
		}
		at := 0
		for b, k := range c {
			c[b] = at
			at += k
		}
		shift := uint(32 + 8*d)
		for _, k := range keys {
			b := byte(k >> shift)
			tmp[c[b]] = k
			c[b]++
		}
		keys, tmp = tmp, keys
	}
	return keys, tmp
}
