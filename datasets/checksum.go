package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// normalizedHash is NormalizedSHA256 as an io.Writer: the bytes may arrive
// in pieces of any size (a streaming reader hashes the blocks it parses),
// and Sum gives the value NormalizedSHA256 gives for their concatenation.
// Blanks at the end of a piece are held back until the next non-blank byte
// of the line shows that they are not trailing.
type normalizedHash struct {
	h      hash.Hash
	blanks []byte // blanks seen since the last non-blank byte of the line
}

func newNormalizedHash() *normalizedHash { return &normalizedHash{h: sha256.New()} }

// Write hashes p; it never fails.
func (n *normalizedHash) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		// The next line break or CR ends a run of ordinary bytes.
		end := bytes.IndexAny(p, "\r\n")
		run := p
		if end >= 0 {
			run = p[:end]
		}
		if len(run) > 0 {
			last := len(run)
			for last > 0 && isTrailingBlank(run[last-1]) {
				last--
			}
			if last > 0 {
				// A non-blank byte: the held blanks were inside the line.
				if len(n.blanks) > 0 {
					n.h.Write(n.blanks)
					n.blanks = n.blanks[:0]
				}
				n.h.Write(run[:last])
			}
			n.blanks = append(n.blanks, run[last:]...)
		}
		if end < 0 {
			break
		}
		if p[end] == '\n' {
			n.blanks = n.blanks[:0]
			n.h.Write(newline)
		}
		// A CR is deleted wherever it is.
		p = p[end+1:]
	}
	return total, nil
}

var newline = []byte{'\n'}

// Sum returns the hex digest of everything written (trailing blanks of an
// unterminated last line dropped, as NormalizedSHA256 does).
func (n *normalizedHash) Sum() string { return hex.EncodeToString(n.h.Sum(nil)) }
