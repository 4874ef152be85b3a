package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The JSON and YAML readers refuse the same mistakes, which their decoders
// alone would treat differently: encoding/json takes the last of two equal
// keys, matches keys in any letter case and stops reading after the first
// value; yaml.v3 reads 042 as octal 34 and ignores a second document. Both
// texts are first read into one small tree, checked here against the
// spec's types, and only then decoded.

// tree is a document reduced to what the checks need.
type tree struct {
	kind  byte // 'm' mapping, 's' sequence, 'v' scalar
	keys  []string
	kpos  []string // where each key is, "line L, column C"
	vals  []*tree
	items []*tree
	text  string // a scalar's text
	num   bool   // a scalar the format reads as a number (JSON number, YAML int or float)
	// tag is a YAML scalar's explicit tag as written ("!!float" in
	// "folds: !!float 3"; "" when none was written, and in JSON).
	tag string
	pos string
}

var decimal = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// strict checks data (format "json" or "yaml") against the spec's types.
// Syntax errors are left to the decoder, which words them.
func strict(data []byte, format string) error {
	var t *tree
	var err error
	if format == "json" {
		t, err = jsonTree(data)
	} else {
		t, err = yamlTree(data)
	}
	if err != nil || t == nil {
		return err
	}
	return check(t, reflect.TypeOf(file{}), "")
}

// check walks t along typ: no key twice in one mapping, keys in the exact
// letter case of the spec, integers in plain decimal.
func check(t *tree, typ reflect.Type, path string) error {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch t.kind {
	case 'm':
		return checkMapping(t, typ, path)
	case 's':
		if typ.Kind() == reflect.Slice {
			for _, it := range t.items {
				if err := check(it, typ.Elem(), path); err != nil {
					return err
				}
			}
		}
	case 'v':
		return checkScalar(t, typ, path)
	}
	return nil
}

// checkMapping refuses a key given twice or in another letter case than
// its field's, and checks each value along its field's type.
func checkMapping(t *tree, typ reflect.Type, path string) error {
	seen := map[string]bool{}
	for i, k := range t.keys {
		if seen[k] {
			return fmt.Errorf("%s: key %s is given twice; give each key once", t.kpos[i], path+k)
		}
		seen[k] = true
	}
	for i, k := range t.keys {
		var sub reflect.Type
		switch typ.Kind() {
		case reflect.Struct:
			f, exact := field(typ, k)
			if f == nil {
				continue // unknown: the decoder names it
			}
			if !exact {
				return fmt.Errorf("%s: key %s must be written %s (keys are case-sensitive)", t.kpos[i], path+k, path+fieldName(*f))
			}
			sub = f.Type
		case reflect.Map:
			sub = typ.Elem()
		default:
			continue
		}
		if err := check(t.vals[i], sub, path+k+"."); err != nil {
			return err
		}
	}
	return nil
}

// checkScalar refuses an integer that is not written in plain decimal or
// does not fit its field, and a YAML tag that makes a value another kind
// than its field's; each quotes the value as written.
func checkScalar(t *tree, typ reflect.Type, path string) error {
	isInt := false
	switch typ.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		isInt = true
	}
	name := strings.TrimSuffix(path, ".")
	if want := tagsOf(typ.Kind()); t.tag != "" && want != nil && !slices.Contains(want, t.tag) {
		// yaml.v3 would decode "!!float 3" into an integer field as 3,
		// although "3.0" is refused: the tag says what the value is.
		return fmt.Errorf("%s: %s %s %s is tagged %s, and %s takes %s (remove the tag)", t.pos, name, t.tag, t.text, t.tag, name, kindName(typ.Kind()))
	}
	if (isInt || t.num) && looksInteger(t.text) && !decimal.MatchString(t.text) {
		fix := "write it in decimal"
		if typ.Kind() == reflect.String {
			fix += ", or quote it if it is text"
		}
		return fmt.Errorf("%s: %s is not a plain decimal integer (leading zeros, signs, underscores and 0x/0o prefixes are refused: YAML would read 042 as octal 34); %s", t.pos, strings.TrimSuffix(path, ".")+" "+t.text, fix)
	}
	if isInt && t.num && !decimal.MatchString(t.text) {
		return fmt.Errorf("%s: %s is not a decimal integer", t.pos, strings.TrimSuffix(path, ".")+" "+t.text)
	}
	if isInt && t.num && decimal.MatchString(t.text) {
		// A decoder clamps, wraps or rounds a number that does not fit
		// (YAML reads -9223372036854775809 as a float, which decodes as
		// the smallest int64): refuse it here, as written.
		lo, hi, err := intRange(typ, t.text)
		if err != nil {
			return fmt.Errorf("%s: %s %s is out of range (a whole number from %s to %s)", t.pos, name, t.text, lo, hi)
		}
	}
	return nil
}

// tagsOf lists the YAML tags a field of kind k takes (nil: any, for the
// kinds whose values are not scalars, or hold any value).
func tagsOf(k reflect.Kind) []string {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return []string{"!!int"}
	case reflect.Float32, reflect.Float64:
		return []string{"!!int", "!!float"}
	case reflect.String:
		return []string{"!!str"}
	case reflect.Bool:
		return []string{"!!bool"}
	}
	return nil
}

// kindName names what a field of kind k takes, for a message.
func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	}
	return "a whole number"
}

// intRange parses the decimal text for an integer field of type typ; on a
// value that does not fit, it returns the field's range and an error.
func intRange(typ reflect.Type, text string) (lo, hi string, err error) {
	bits := typ.Bits()
	switch typ.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err = strconv.ParseUint(text, 10, bits)
		return "0", strconv.FormatUint(1<<bits-1, 10), err
	}
	_, err = strconv.ParseInt(text, 10, bits)
	return strconv.FormatInt(-1<<(bits-1), 10), strconv.FormatInt(1<<(bits-1)-1, 10), err
}

// looksInteger reports a scalar a YAML or JSON reader could take as an
// integer in some base or spelling.
func looksInteger(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	if len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])) {
		return true
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// field finds the struct field a key names: exactly, or else in another
// letter case (exact false).
func field(typ reflect.Type, key string) (*reflect.StructField, bool) {
	var fold *reflect.StructField
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name := fieldName(f)
		if name == key {
			return &f, true
		}
		if fold == nil && strings.EqualFold(name, key) {
			fold = &f
		}
	}
	return fold, false
}

func fieldName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	return name
}

func at(line, col int) string { return fmt.Sprintf("line %d, column %d", line, col) }

// jsonTree reads one JSON value and refuses anything after it.
func jsonTree(data []byte) (*tree, error) {
	j := &jsonReader{data: data, dec: json.NewDecoder(bytes.NewReader(data)), lines: lineStarts(data)}
	j.dec.UseNumber()
	t, err := j.read()
	if err != nil {
		return nil, nil // a syntax error: the decoder words it
	}
	if _, err := j.dec.Token(); err != io.EOF {
		off := j.dec.InputOffset()
		for off < int64(len(data)) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
			off++
		}
		return nil, fmt.Errorf("%s: data after the spec's closing }; a spec is one JSON object", j.pos(min(off, int64(len(data)))))
	}
	return t, nil
}

// jsonReader builds a tree from a JSON decoder's tokens, with the line and
// column of each.
type jsonReader struct {
	data []byte
	dec  *json.Decoder
	// lines holds the offset at which each line starts, found once: a
	// position is then a binary search, where counting newlines from the
	// start for every token made reading quadratic in the spec's size.
	lines []int64
}

// lineStarts returns the offset of each line's first byte in data.
func lineStarts(data []byte) []int64 {
	starts := []int64{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, int64(i)+1)
		}
	}
	return starts
}

// pos is the line and column of a byte offset.
func (j *jsonReader) pos(off int64) string {
	// The last line starting at or before off.
	i, found := slices.BinarySearch(j.lines, off)
	if !found {
		i--
	}
	return at(i+1, int(off-j.lines[i])+1)
}

// start finds the offset where the token just read begins.
func (j *jsonReader) start(end int64) int64 {
	data := j.data
	i := end
	for i > 0 && !strings.ContainsRune(" \t\r\n:,[{", rune(data[i-1])) {
		i--
	}
	if i < end && data[end-1] == '"' { // a string: back to its opening quote
		k := bytes.LastIndexByte(data[:end-1], '"')
		for k > 0 && data[k-1] == '\\' {
			k = bytes.LastIndexByte(data[:k-1], '"')
		}
		if k >= 0 {
			i = int64(k)
		}
	}
	return i
}

// read reads one value: an object, an array or a scalar.
func (j *jsonReader) read() (*tree, error) {
	tok, err := j.dec.Token()
	if err != nil {
		return nil, err
	}
	here := j.pos(j.start(j.dec.InputOffset()))
	switch v := tok.(type) {
	case json.Delim:
		here = j.pos(j.dec.InputOffset() - 1)
		switch v {
		case '{':
			return j.object(here)
		case '[':
			return j.array(here)
		}
	case json.Number:
		return &tree{kind: 'v', text: string(v), num: true, pos: here}, nil
	case string:
		return &tree{kind: 'v', text: v, pos: here}, nil
	}
	return &tree{kind: 'v', text: fmt.Sprint(tok), pos: here}, nil
}

// object reads an object's members after its '{', and its '}'.
func (j *jsonReader) object(here string) (*tree, error) {
	t := &tree{kind: 'm', pos: here}
	for j.dec.More() {
		kt, err := j.dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := kt.(string)
		t.keys = append(t.keys, k)
		t.kpos = append(t.kpos, j.pos(j.start(j.dec.InputOffset())))
		val, err := j.read()
		if err != nil {
			return nil, err
		}
		t.vals = append(t.vals, val)
	}
	_, err := j.dec.Token()
	return t, err
}

// array reads an array's items after its '[', and its ']'.
func (j *jsonReader) array(here string) (*tree, error) {
	t := &tree{kind: 's', pos: here}
	for j.dec.More() {
		it, err := j.read()
		if err != nil {
			return nil, err
		}
		t.items = append(t.items, it)
	}
	_, err := j.dec.Token()
	return t, err
}

// yamlNodeTree converts a YAML node (at depth) to a tree.
func yamlNodeTree(n *yaml.Node, depth int) *tree {
	if depth > 100 {
		return &tree{kind: 'v', pos: at(n.Line, n.Column)}
	}
	if n.Kind == yaml.AliasNode {
		// Not followed: aliases can multiply a document (billion
		// laughs), and the anchored node is checked where it stands.
		return &tree{kind: 'v', pos: at(n.Line, n.Column)}
	}
	here := at(n.Line, n.Column)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return yamlNodeTree(n.Content[0], depth+1)
	case yaml.MappingNode:
		t := &tree{kind: 'm', pos: here}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			t.keys = append(t.keys, k.Value)
			t.kpos = append(t.kpos, at(k.Line, k.Column))
			t.vals = append(t.vals, yamlNodeTree(n.Content[i+1], depth+1))
		}
		return t
	case yaml.SequenceNode:
		t := &tree{kind: 's', pos: here}
		for _, c := range n.Content {
			t.items = append(t.items, yamlNodeTree(c, depth+1))
		}
		return t
	}
	tag := n.ShortTag()
	t := &tree{kind: 'v', text: n.Value, num: tag == "!!int" || tag == "!!float", pos: here}
	if n.Style&yaml.TaggedStyle != 0 {
		t.tag = tag
	}
	return t
}

// yamlTree reads one YAML document and refuses a second.
func yamlTree(data []byte) (*tree, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, nil // empty or a syntax error: the decoder words it
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("%s: a second YAML document; a spec is one document (remove the ---)", at(next.Line, next.Column))
	} else if !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("after the first YAML document: %v; a spec is one document", err)
	}
	t := yamlNodeTree(&doc, 0)
	if t == nil {
		return nil, nil
	}
	return t, nil
}
