// Package safename reduces names that come from data (a dataset's name or
// path, a column name, a method label, a spec field) to one safe file-name
// component. Every output path fgrtbench builds from such a name goes
// through Component, so no header, label or path can decide where a file
// is written: the result never holds a separator, never is "." or "..",
// never starts with a dot, never is empty and never is longer than MaxLen
// bytes.
package safename

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MaxLen bounds a component, well under the 255 bytes most file systems
// allow for a whole file name, leaving room for the prefix and suffix
// (sweep-<protocol>-…, .png) that callers add.
const MaxLen = 120

// Component returns s with every byte other than an ASCII letter, digit,
// '-', '.' or '_' replaced by '_' (a multi-byte character becomes one
// '_'), a leading '.' replaced by '_', and "" made "_". A result longer
// than MaxLen is cut and ends in a hash of the whole of s, so two long
// names that share a prefix stay apart. Names already safe come back
// unchanged.
func Component(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" {
		return "_"
	}
	if out[0] == '.' {
		out = "_" + out[1:]
	}
	if len(out) > MaxLen {
		sum := sha256.Sum256([]byte(s))
		tail := "-" + hex.EncodeToString(sum[:8])
		out = out[:MaxLen-len(tail)] + tail
	}
	return out
}

// Collision returns two different names of names that Component reduces to
// the same component, or ok false when all components are distinct.
func Collision(names []string) (a, b string, ok bool) {
	seen := map[string]string{}
	for _, n := range names {
		c := Component(n)
		if prev, dup := seen[c]; dup && prev != n {
			return prev, n, true
		}
		seen[c] = n
	}
	return "", "", false
}
