package artifacts

import (
	"strconv"

	"github.com/fgrtbench/fgrtbench/learn"
)

// A model record's JSON line is written by hand (appendModelJSON) and read
// by hand (fastModel), both for speed. Both follow one list per type,
// modelFields and termFields: each member's key, when it is left out, how
// its value is written and how it is read. The lists are in the order of
// the types' fields, as encoding/json writes them, and
// TestFieldTablesAreTheStructTags holds them against the struct tags
// (which encoding/json, the reader's fallback, follows), so a field is
// added in two places that a test keeps together: the struct and its list.

// jsonField is one member of a hand-coded JSON object of type T.
type jsonField[T any] struct {
	key string
	// empty reports a value the struct tag's omitempty leaves out; nil
	// for a member always written.
	empty func(v T) bool
	// write appends the member's value; nil for the model record's model,
	// which appendModelParts writes apart (last, and compacted).
	write func(b []byte, v T) []byte
	// strings, for a member that is an array of strings (a deep tree's
	// rules: tens of megabytes), gives the array, so that a writer can
	// stream it element by element (writeModelHead) instead of appending
	// it whole; write appends the same text.
	strings func(v T) []string
	// read decodes the member's value into the scanner's record (s.rec)
	// or term (s.curTerm). The value goes there, not through a pointer
	// argument: a pointer handed to a function value escapes, and every
	// record and term read would cost an allocation (BenchmarkReadModels).
	read func(s *jsonScan) bool
}

// modelFields is the schema of a ModelRecord's JSON line.
var modelFields = []jsonField[ModelRecord]{
	{key: "key",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONString(b, r.Key) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Key, ok = s.str(); return ok }},
	{key: "config_index",
		write: func(b []byte, r ModelRecord) []byte { return strconv.AppendInt(b, int64(r.ConfigIndex), 10) },
		read:  func(s *jsonScan) (ok bool) { s.rec.ConfigIndex, ok = s.integer(); return ok }},
	{key: "kind",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONString(b, r.Kind) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Kind, ok = s.shared(); return ok }},
	{key: "features",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.Features) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Features, ok = stringArray(s, s.shared); return ok }},
	{key: "classes",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.Classes) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Classes, ok = stringArray(s, s.shared); return ok }},
	{key: "rules",
		write:   func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.Rules) },
		strings: func(r ModelRecord) []string { return r.Rules },
		read:    func(s *jsonScan) (ok bool) { s.rec.Rules, ok = stringArray(s, s.str); return ok }},
	{key: "readable_rules",
		empty:   func(r ModelRecord) bool { return len(r.ReadableRules) == 0 },
		write:   func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.ReadableRules) },
		strings: func(r ModelRecord) []string { return r.ReadableRules },
		read:    func(s *jsonScan) (ok bool) { s.rec.ReadableRules, ok = stringArray(s, s.str); return ok }},
	{key: "readable_default",
		empty: func(r ModelRecord) bool { return r.ReadableDefault == "" },
		write: func(b []byte, r ModelRecord) []byte { return appendJSONString(b, r.ReadableDefault) },
		read:  func(s *jsonScan) (ok bool) { s.rec.ReadableDefault, ok = s.str(); return ok }},
	{key: "partitions",
		empty: func(r ModelRecord) bool { return len(r.Partitions) == 0 },
		write: func(b []byte, r ModelRecord) []byte { return learn.AppendJSONArray(b, r.Partitions, appendTermJSON) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Partitions, ok = array(s, s.term); return ok }},
	{key: "model",
		empty: func(r ModelRecord) bool { return len(r.Model) == 0 },
		read: func(s *jsonScan) bool {
			// encoding/json keeps any JSON value in a RawMessage; the
			// models fgrtbench writes are objects or arrays.
			if c := s.peek(); c != '{' && c != '[' {
				return false
			}
			raw, ok := s.skipValue()
			if ok && s.keepModel {
				s.rec.Model = append([]byte(nil), raw...)
			}
			return ok
		}},
}

// termFields is the schema of a partition term's JSON object.
var termFields = []jsonField[Term]{
	{key: "feature",
		write: func(b []byte, t Term) []byte { return strconv.AppendInt(b, int64(t.Feature), 10) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.Feature, ok = s.integer(); return ok }},
	{key: "feature_name",
		write: func(b []byte, t Term) []byte { return appendJSONString(b, t.FeatureName) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.FeatureName, ok = s.shared(); return ok }},
	{key: "term",
		write: func(b []byte, t Term) []byte { return strconv.AppendInt(b, int64(t.Term), 10) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.Term, ok = s.integer(); return ok }},
	{key: "term_name",
		write: func(b []byte, t Term) []byte { return appendJSONString(b, t.TermName) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.TermName, ok = s.shared(); return ok }},
	{key: "trapezoid",
		empty: func(t Term) bool { return len(t.Trapezoid) == 0 },
		write: func(b []byte, t Term) []byte { return learn.AppendJSONFloats(b, t.Trapezoid) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.Trapezoid, ok = array(s, s.float); return ok }},
	{key: "trapezoid_scaled",
		empty: func(t Term) bool { return len(t.TrapezoidScaled) == 0 },
		write: func(b []byte, t Term) []byte { return learn.AppendJSONFloats(b, t.TrapezoidScaled) },
		read:  func(s *jsonScan) (ok bool) { s.curTerm.TrapezoidScaled, ok = array(s, s.float); return ok }},
	{key: "category",
		empty: func(t Term) bool { return t.Category == nil },
		write: func(b []byte, t Term) []byte { return t.Category.AppendJSON(b) },
		read: func(s *jsonScan) bool {
			v, ok := s.float()
			if ok {
				s.curTerm.Category = &v
			}
			return ok
		}},
}

// appendObject appends '{' and the members of v that fields writes, in
// order, without the closing '}'. It stops at a member without a writer
// (the model record's model) and returns its index, len(fields) when
// every member was written.
func appendObject[T any](b []byte, v T, fields []jsonField[T]) ([]byte, int) {
	b, at, _ := writeObject(b, v, fields, nil)
	return b, at
}

// writeObject is appendObject with a sink: when flush is not nil, it is
// handed b after each member and after each element of a member that is an
// array of strings (jsonField.strings), and returns the buffer to go on
// with, so that a large record streams (writeModelHead) instead of being
// held whole. The bytes, taken in order, are appendObject's.
func writeObject[T any](b []byte, v T, fields []jsonField[T], flush func([]byte) ([]byte, error)) ([]byte, int, error) {
	b = append(b, '{')
	first := true
	var err error
	for i := range fields {
		f := &fields[i]
		if f.write == nil {
			return b, i, nil
		}
		if f.empty != nil && f.empty(v) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendMemberKey(b, f.key)
		var ss []string
		if flush != nil && f.strings != nil {
			ss = f.strings(v)
		}
		if ss == nil {
			// Also a nil array, which f.write writes as null.
			b = f.write(b, v)
		} else {
			b = append(b, '[')
			for k, s := range ss {
				if k > 0 {
					b = append(b, ',')
				}
				if b, err = flush(appendJSONString(b, s)); err != nil {
					return nil, 0, err
				}
			}
			b = append(b, ']')
		}
		if flush != nil {
			if b, err = flush(b); err != nil {
				return nil, 0, err
			}
		}
	}
	return b, len(fields), nil
}

// appendMemberKey appends "key": (the keys are plain ASCII).
func appendMemberKey(b []byte, key string) []byte {
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// readObject reads an object, each member by its field's reader; a key
// fields does not list declines, so the line goes to encoding/json.
func readObject[T any](s *jsonScan, fields []jsonField[T]) bool {
	return s.object(func(key string) bool {
		for i := range fields {
			if fields[i].key == key {
				return fields[i].read(s)
			}
		}
		return false
	})
}
