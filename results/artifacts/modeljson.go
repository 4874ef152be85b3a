package artifacts

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/fgrtbench/fgrtbench/learn"
)

// A full reproduction's models.jsonl.gz is about 100 MB of JSON, two
// thirds of it the learners' model structures, which readers keep as raw
// text. encoding/json scans every line twice (once to find its end, once
// to decode) through reflection. fastModel decodes the lines our own
// encoder writes in one pass: keys spelled exactly, strings without
// escapes, integers where an int goes, the model an object or array kept
// verbatim after a validating scan. It declines (ok false) anything else,
// and the caller then decodes the line with encoding/json as before, so
// that every record read, and every error message, is the one
// encoding/json gives: fastModel accepts a subset of what encoding/json
// accepts and decodes it alike.

// maxModelDepth bounds the nesting fastModel follows; encoding/json's
// own limit is 10000, so deeper text goes to it.
const maxModelDepth = 10000

// jsonScan is a position in one line of JSON.
type jsonScan struct {
	b []byte
	i int
	// intern shares the strings records repeat (feature, class and term
	// names, kinds) within a member.
	intern map[string]string
	// keepModel copies a model record's model; without it the model's
	// JSON is only checked.
	keepModel bool
	// rec and curTerm receive the members of the record and of the term
	// being read (modelFields, termFields).
	rec     ModelRecord
	curTerm Term
	// strs collects a string array's elements before they are copied to
	// a slice of their number (stringArray), kept across the members a
	// pooled scanner reads.
	strs []string
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space (0 at the end).
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// eat consumes c after white space.
func (s *jsonScan) eat(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// rawString returns the bytes of a string without escapes, control
// characters or invalid UTF-8 (exactly what encoding/json decodes it to).
func (s *jsonScan) rawString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	ascii := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			str := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(str) {
				return nil, false
			}
			return str, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return nil, false
}

func (s *jsonScan) str() (string, bool) {
	b, ok := s.rawString()
	return string(b), ok
}

// shared is str, interned.
func (s *jsonScan) shared() (string, bool) {
	b, ok := s.rawString()
	if !ok {
		return "", false
	}
	if v, ok := s.intern[string(b)]; ok {
		return v, true
	}
	v := string(b)
	s.intern[v] = v
	return v, true
}

// null consumes a null.
func (s *jsonScan) null() bool {
	if s.peek() == 'n' && len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// number returns the text of a JSON number (RFC 8259 grammar) and
// whether it is an integer (no fraction, no exponent).
func (s *jsonScan) number() (text []byte, integer, ok bool) {
	s.ws()
	b, i := s.b, s.i
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return nil, false, false
		}
	}
	s.i = i
	return b[start:i], integer, true
}

// integer reads a JSON integer that fits an int.
func (s *jsonScan) integer() (int, bool) {
	text, integer, ok := s.number()
	if !ok || !integer {
		return 0, false
	}
	v, err := strconv.ParseInt(string(text), 10, strconv.IntSize)
	return int(v), err == nil
}

// float reads a learn.JSONFloat: a number, or "NaN", "Infinity",
// "-Infinity".
func (s *jsonScan) float() (learn.JSONFloat, bool) {
	if s.peek() == '"' {
		b, ok := s.rawString()
		switch {
		case !ok:
			return 0, false
		case string(b) == "NaN":
			return learn.JSONFloat(math.NaN()), true
		case string(b) == "Infinity":
			return learn.JSONFloat(math.Inf(1)), true
		case string(b) == "-Infinity":
			return learn.JSONFloat(math.Inf(-1)), true
		}
		return 0, false
	}
	text, _, ok := s.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(text), 64)
	return learn.JSONFloat(v), err == nil
}

// array reads null (nil) or an array whose elements elem reads (an empty
// array: not nil, as encoding/json decodes it).
func array[T any](s *jsonScan, elem func() (T, bool)) ([]T, bool) {
	if s.null() {
		return nil, true
	}
	if !s.eat('[') {
		return nil, false
	}
	out := []T{}
	if s.eat(']') {
		return out, true
	}
	for {
		v, ok := elem()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if s.eat(']') {
			return out, true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// stringArray is array for strings (rules, features, classes): the
// elements are collected in s.strs and copied to a slice of their
// number. A deep tree's rules (10^5 per model) grown by appending went
// through slices that were, in all, several times their final size,
// garbage the paused collector kept while a report read them.
func stringArray(s *jsonScan, elem func() (string, bool)) ([]string, bool) {
	if s.null() {
		return nil, true
	}
	if !s.eat('[') {
		return nil, false
	}
	if s.eat(']') {
		return []string{}, true
	}
	defer func() {
		clear(s.strs) // the record holds them, not the pooled scanner
		s.strs = s.strs[:0]
	}()
	for {
		v, ok := elem()
		if !ok {
			return nil, false
		}
		s.strs = append(s.strs, v)
		if s.eat(']') {
			out := make([]string, len(s.strs))
			copy(out, s.strs)
			return out, true
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// object reads an object whose members field reads by key (each key at
// most once: encoding/json would let a later one win, left to it).
func (s *jsonScan) object(field func(key string) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	var seen [16]string
	n := 0
	for {
		k, ok := s.rawString()
		if !ok || !s.eat(':') {
			return false
		}
		for _, prev := range seen[:n] {
			if prev == string(k) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n] = string(k)
		n++
		if !field(seen[n-1]) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// skipValue passes over one JSON value, checking it as encoding/json's
// scanner does, and returns its text.
func (s *jsonScan) skipValue() ([]byte, bool) {
	s.ws()
	start := s.i
	// stack holds the open containers: '{' or '['.
	var stack []byte
	for {
		// A value: a container opens (and its first value follows), or a
		// scalar passes.
		s.ws()
		if s.i >= len(s.b) {
			return nil, false
		}
		if c := s.b[s.i]; c == '{' || c == '[' {
			if len(stack) >= maxModelDepth {
				return nil, false
			}
			if !s.emptyContainer(c) {
				stack = append(stack, c)
				if c == '{' && !s.skipKey() {
					return nil, false
				}
				continue
			}
		} else if !s.skipScalar(c) {
			return nil, false
		}
		open, ok := s.afterValue(stack)
		if !ok {
			return nil, false
		}
		if stack = stack[:open]; open == 0 {
			return s.b[start:s.i], true
		}
	}
}

// emptyContainer enters the container c ('{' or '[') at s.i and reports
// whether it closes at once (then it is passed whole).
func (s *jsonScan) emptyContainer(c byte) bool {
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c+2 { // '}' or ']'
		s.i++
		return true
	}
	return false
}

// skipScalar passes over the string, number or literal starting with c.
func (s *jsonScan) skipScalar(c byte) bool {
	switch {
	case c == '"':
		return s.skipString()
	case c == '-' || (c >= '0' && c <= '9'):
		_, _, ok := s.number()
		return ok
	case c == 't' || c == 'f' || c == 'n':
		lit := "null"
		if c == 't' {
			lit = "true"
		} else if c == 'f' {
			lit = "false"
		}
		if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
			return false
		}
		s.i += len(lit)
		return true
	}
	return false
}

// afterValue closes the containers of stack that a value ends, and passes
// the comma (and an object's next key) before the next value; it returns
// how many containers stay open (0: the outermost value has ended).
func (s *jsonScan) afterValue(stack []byte) (open int, ok bool) {
	for open = len(stack); open > 0; {
		s.ws()
		if s.i >= len(s.b) {
			return 0, false
		}
		top := stack[open-1]
		c := s.b[s.i]
		s.i++
		if c == top+2 {
			open--
			continue
		}
		if c != ',' {
			return 0, false
		}
		if top == '{' && !s.skipKey() {
			return 0, false
		}
		s.ws()
		return open, true
	}
	return 0, true
}

// skipKey passes over an object key and its colon.
func (s *jsonScan) skipKey() bool {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' || !s.skipString() {
		return false
	}
	return s.eat(':')
}

// skipString passes over a string (any bytes but control characters,
// valid escapes).
func (s *jsonScan) skipString() bool {
	b := s.b
	s.i++ // the opening quote
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			s.i++
			if s.i >= len(b) {
				return false
			}
			switch b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-s.i < 5 {
					return false
				}
				for _, h := range b[s.i+1 : s.i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				s.i += 4
			default:
				return false
			}
		}
		s.i++
	}
	return false
}

// fastModel decodes one line as encoding/json decodes it into a
// ModelRecord, or declines (ok false). Without s.keepModel the model's
// JSON is checked but not copied (r.Model is nil). One scanner serves a
// member's lines (decodeModelMember).
func fastModel(s *jsonScan, line []byte) (r ModelRecord, ok bool) {
	s.b, s.i, s.rec = line, 0, ModelRecord{}
	if !readObject(s, modelFields) {
		return ModelRecord{}, false
	}
	s.ws()
	return s.rec, s.i == len(line)
}

// term decodes one partition term (termFields).
func (s *jsonScan) term() (Term, bool) {
	s.curTerm = Term{}
	ok := readObject(s, termFields)
	return s.curTerm, ok
}
