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
		read:  func(s *jsonScan) (ok bool) { s.rec.Features, ok = array(s, s.shared); return ok }},
	{key: "classes",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.Classes) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Classes, ok = array(s, s.shared); return ok }},
	{key: "rules",
		write: func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.Rules) },
		read:  func(s *jsonScan) (ok bool) { s.rec.Rules, ok = array(s, s.str); return ok }},
	{key: "readable_rules",
		empty: func(r ModelRecord) bool { return len(r.ReadableRules) == 0 },
		write: func(b []byte, r ModelRecord) []byte { return appendJSONStrings(b, r.ReadableRules) },
		read:  func(s *jsonScan) (ok bool) { s.rec.ReadableRules, ok = array(s, s.str); return ok }},
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
	b = append(b, '{')
	first := true
	for i := range fields {
		f := &fields[i]
		if f.write == nil {
			return b, i
		}
		if f.empty != nil && f.empty(v) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendMemberKey(b, f.key)
		b = f.write(b, v)
	}
	return b, len(fields)
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
