package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
)

// ContentPrefix starts a content identity, telling it apart from a file
// checksum (64 bare hex digits) wherever either may be recorded.
const ContentPrefix = "content:"

// ContentIdentity identifies the table a Dataset holds, not the bytes it was
// read from: "content:" and the SHA-256 of the header as parsed (each
// column's name, type, declared domain and whether its cells are integer
// literals), every value as parsed (a float64, a category code into the
// declared domain, NaN for a missing cell) and the class labels with each
// row's class. A byte-order mark (which the CSV reader drops; KEEL and ARFF
// files with one are refused), CR or CRLF line ends, trailing blank lines,
// padding around cells and quoting do not change it; any change to
// a value, a label, a name or a column's type does. The dataset's name and
// path take no part: one table under two names has one identity.
//
// The bytes hashed are those fgrtbench has always hashed for data built in
// memory, so such data keeps its identity.
func ContentIdentity(d *Dataset) string {
	h := sha256.New()
	// One buffer, flushed when full: a call of Write per value would cost
	// more than the hashing on 10^6-row tables.
	buf := make([]byte, 0, 64<<10)
	flush := func() {
		h.Write(buf)
		buf = buf[:0]
	}
	str := func(s string) {
		buf = strconv.AppendInt(buf, int64(len(s)), 10)
		buf = append(buf, ':')
		buf = append(buf, s...)
		if len(buf) > cap(buf)/2 {
			flush()
		}
	}
	attr := func(a Attribute) {
		str(a.Name)
		str(a.Type)
		buf = strconv.AppendInt(buf, int64(len(a.Domain)), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendBool(buf, a.IntegerLiterals)
		for _, v := range a.Domain {
			str(v)
		}
	}
	for _, a := range d.Inputs {
		attr(a)
	}
	attr(d.Output)
	for _, c := range d.Classes {
		str(c)
	}
	for i, row := range d.X {
		if len(buf)+8*(len(row)+1) > cap(buf) {
			flush()
		}
		for _, v := range row {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		if i < len(d.Y) {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(d.Y[i]))
		}
	}
	buf = append(buf, "end"...)
	flush()
	return ContentPrefix + hex.EncodeToString(h.Sum(nil))
}

// Identity is what a study identifies a dataset by: its ContentIdentity,
// except for the tables the registry pins (the ten KEEL files), which keep
// the pinned normalised file checksum they have always been identified by,
// so that the unit keys of the paper's reproduction do not change. Both
// forms depend on the parsed table only: a copy of a KEEL file with a
// CRLF line ends or trailing blank lines is that dataset.
func Identity(d *Dataset) string {
	content := ContentIdentity(d)
	if info, ok := pinnedByContent[content]; ok {
		return info.NormalizedSHA256
	}
	return content
}

// ContentOf reads an identity as a manifest or a baseline records it and
// returns the content identity it stands for: itself for a content
// identity, the pinned table's for the normalised checksum of a registry
// file, and "" for any other file checksum (recorded by a version of
// fgrtbench before 2026-11, which identified data files by their bytes:
// the table it stands for is unknown).
func ContentOf(id string) string {
	if strings.HasPrefix(id, ContentPrefix) {
		return id
	}
	for _, info := range registry {
		if info.NormalizedSHA256 == id {
			return info.ContentIdentity
		}
	}
	return ""
}

// pinnedByContent maps the content identity of each registry table to its
// entry.
var pinnedByContent = func() map[string]Info {
	out := make(map[string]Info, len(registry))
	for name, info := range registry {
		info.Name = name
		out[info.ContentIdentity] = info
	}
	return out
}()
