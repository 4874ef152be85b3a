// Package branchless holds the one helper that the hot loops of the
// learners use to count or select on a comparison whose outcome follows no
// pattern (a row's side of a split, a value against a pivot, which rule
// leads on a row): written as data, not as a branch, it costs no
// misprediction.
package branchless

// Int is 1 for true and 0 for false. The compiler turns it into a flag
// read (SETcc on amd64, CSET on arm64), not a jump, and inlines it.
func Int(b bool) int {
	if b {
		return 1
	}
	return 0
}
