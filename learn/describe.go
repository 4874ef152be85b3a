package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Description is a fitted model as data: what a results directory keeps of
// every model (models.jsonl.gz, whose records, results.ModelRecord, embed
// the same ModelHead) so that a study can be re-analysed years later
// without refitting. Model is complete enough to reconstruct the model's
// predictions (Reconstruct); the conformance suite (learntest) checks that
// the decoded JSON predicts exactly what the model predicted.
type Description struct {
	ModelHead
	// Partitions lists the fuzzy terms the model's rules refer to, for
	// learners with fuzzy partitions, in the units the learner saw (Model
	// holds every partition).
	Partitions []PartitionTerm `json:"partitions,omitempty"`
	// Model is the learner-specific structure (tree nodes with their
	// conditions and leaf distributions, rule lists, partitions).
	Model json.RawMessage `json:"model"`
}

// ModelHead is what a description and a stored model record say of a
// model before its partitions and structure: written once here, embedded
// by Description and results.ModelRecord (their JSON lists these fields
// in this order, where the ModelHead stands).
type ModelHead struct {
	// Kind names the layout of Model, "<package>.<model>/<version>" (for
	// example "fgrt.tree/1"); Reconstruct dispatches on it. A stored
	// record of a method that does not describe its models has none.
	Kind string `json:"kind"`
	// Features and Classes are the schema's names, in column and class
	// index order, so that the indices inside Model can be read.
	Features []string `json:"features"`
	Classes  []string `json:"classes"`
	// Rules are the model's human-readable rules, one string per rule
	// that Complexity counts, in the learner's own order: the "IF " lines
	// of Model.Rules (RuleLines), so len(Rules) == Complexity().Rules.
	// A stored record holds null for a model that gives no rules text
	// (an external method may not): its rule count is then unknown.
	Rules []string `json:"rules"`
}

// PartitionTerm is one term of a feature's linguistic variable.
type PartitionTerm struct {
	TermRef
	// Trapezoid holds the corners a <= b <= c <= d of a fuzzy term in the
	// units the learner saw (after any scaling the protocol applied); nil
	// for a crisp term.
	Trapezoid []JSONFloat `json:"trapezoid,omitempty"`
	// Category is the code a crisp (nominal) term matches; nil for a
	// fuzzy term.
	Category *JSONFloat `json:"category,omitempty"`
}

// TermRef names one term of one feature, by index and by name: written
// once here, embedded by PartitionTerm and results.Term.
type TermRef struct {
	Feature     int    `json:"feature"`
	FeatureName string `json:"feature_name"`
	Term        int    `json:"term"`
	TermName    string `json:"term_name"`
}

// Describer is implemented by models that can describe themselves as data
// (every Go learner of the harness). Describe must not modify the model.
type Describer interface {
	Describe(s Schema) (Description, error)
}

// Scorer is implemented by models that produce per-class scores: Scores
// returns one row per row of X with one column per class of the schema.
// The scores are the quantities the model's prediction compares, so that
// wherever one class's score exceeds every other's by more than
// ScoreTieMargin the model predicts that class (the conformance suite
// checks it); what they mean is the learner's own (class fractions,
// firing strengths, dominance scores).
type Scorer interface {
	Scores(X [][]float64) [][]float64
}

// ScoreTieMargin is the margin above which the largest score decides the
// prediction. C4.5 (J48) prefers an earlier class unless a later one
// exceeds it by more than 1e-6; the other learners break only exact ties,
// by their own order (rule order, node order), which no class-wise score
// can express.
const ScoreTieMargin = 1e-6

// Predictor predicts class indices, as Model does.
type Predictor interface {
	Predict(X [][]float64) []int
}

// Decoder rebuilds a predictor from the Model field of a Description.
type Decoder func(model json.RawMessage) (Predictor, error)

var (
	decodersMu sync.RWMutex
	decoders   = map[string]Decoder{}
)

// RegisterKind makes Reconstruct able to rebuild models of the given kind,
// as image.RegisterFormat does for image formats. Learner packages call it
// from init; registering a kind twice panics (a programming error).
func RegisterKind(kind string, d Decoder) {
	decodersMu.Lock()
	defer decodersMu.Unlock()
	if _, dup := decoders[kind]; dup {
		panic("learn: kind " + kind + " registered twice")
	}
	decoders[kind] = d
}

// RegisterModel is RegisterKind for a learner whose package rebuilds its
// models with fromJSON (its ModelFromJSON), so that each learner registers
// its kind in one line: func init() { learn.RegisterModel(Kind,
// ModelFromJSON) }.
func RegisterModel[M Predictor](kind string, fromJSON func(json.RawMessage) (M, error)) {
	RegisterKind(kind, func(raw json.RawMessage) (Predictor, error) {
		m, err := fromJSON(raw)
		if err != nil {
			return nil, err // not a Predictor holding a nil model
		}
		return m, nil
	})
}

// Kinds returns the registered kinds, sorted.
func Kinds() []string {
	decodersMu.RLock()
	defer decodersMu.RUnlock()
	out := make([]string, 0, len(decoders))
	for k := range decoders {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Reconstruct rebuilds the predictor a Description describes from its
// Model field alone. The result implements Scorer when the learner's
// models do.
func Reconstruct(d Description) (Predictor, error) {
	decodersMu.RLock()
	dec, ok := decoders[d.Kind]
	decodersMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("learn: unknown model kind %q (is its learner package linked in?)", d.Kind)
	}
	p, err := dec(d.Model)
	if err != nil {
		return nil, fmt.Errorf("learn: model of kind %s: %w", d.Kind, err)
	}
	return p, nil
}

// NewDescription fills the parts every learner shares: kind, names, the
// rules as RuleLines of m.Rules(s), the marshalled model, and the
// partition terms the rules use (learners with fuzzy partitions).
func NewDescription(kind string, m Model, s Schema, model any, terms ...PartitionTerm) (Description, error) {
	raw, err := marshalModel(model)
	if err != nil {
		return Description{}, fmt.Errorf("learn: describing a %s model: %w", kind, err)
	}
	d := Description{ModelHead: ModelHead{Kind: kind, Rules: RuleLines(m.Rules(s))}, Partitions: terms, Model: raw}
	d.Features = make([]string, len(s.Features))
	for j := range s.Features {
		d.Features[j] = s.FeatureName(j)
	}
	d.Classes = make([]string, len(s.Classes))
	for k := range s.Classes {
		d.Classes[k] = s.ClassName(k)
	}
	return d, nil
}

// marshalModel is json.Marshal(model), without json.Marshal's second pass
// over what a hand-written MarshalJSON returns when that pass could change
// nothing. json.Marshal re-scans a Marshaler's output to validate it,
// compact it and escape <, >, & and U+2028/U+2029 for HTML; on a large
// study that pass cost as much as the encoding itself (each fit's model is
// described once). Output that is compact and holds none of those
// characters is passed through as it is, byte for byte what json.Marshal
// would return; anything else takes json.Marshal. Validity is checked
// where descriptions are written (results validates every model before it
// is appended), and Reconstruct decodes it in the conformance suite.
func marshalModel(model any) ([]byte, error) {
	if mj, ok := model.(json.Marshaler); ok {
		raw, err := mj.MarshalJSON()
		if err == nil && IsCompactJSON(raw) && !needsHTMLEscape(raw) {
			return raw, nil
		}
	}
	return json.Marshal(model)
}

// needsHTMLEscape reports whether json.Marshal's HTML escaping would
// change raw: it holds <, > or &, or the UTF-8 of U+2028 or U+2029.
func needsHTMLEscape(raw []byte) bool {
	for i, c := range raw {
		switch c {
		case '<', '>', '&':
			return true
		case 0xE2:
			if i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9) {
				return true
			}
		}
	}
	return false
}

// IsCompactJSON reports whether JSON text has no white space outside its
// strings (json.Compact would return valid text unchanged).
func IsCompactJSON(raw []byte) bool {
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch c {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

// RuleLines returns the rule lines of a Model.Rules text: the lines that
// start with "IF " (the convention that Model.Rules documents), in order.
func RuleLines(rules string) []string {
	out := []string{}
	for _, line := range strings.Split(rules, "\n") {
		if strings.HasPrefix(line, "IF ") {
			out = append(out, line)
		}
	}
	return out
}

// JSONFloat is a float64 that survives JSON exactly: finite values are
// written as Go writes float64 (the shortest text that reads back to the
// same bits), NaN and the infinities, which JSON numbers cannot hold, as
// the strings "NaN", "Infinity" and "-Infinity" (the spellings Python's
// json module and pandas understand).
type JSONFloat float64

// MarshalJSON implements json.Marshaler.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	return f.AppendJSON(make([]byte, 0, 24)), nil
}

// AppendJSON appends f as MarshalJSON writes it, without allocating: the
// hand-written encoders of the learners' descriptions and of the artifacts
// write every float through it.
func (f JSONFloat) AppendJSON(b []byte) []byte {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Infinity"`...)
	}
	// encoding/json's float64 format, without its reflection: shortest
	// round-trip digits, exponent form below 1e-6 and from 1e21 on, the
	// exponent without a leading zero ("1e-7", not "1e-07").
	format := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if n := len(b); format == 'e' && n-start >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// AppendJSONFloats appends v as encoding/json writes a []JSONFloat (nil:
// null).
func AppendJSONFloats(b []byte, v []JSONFloat) []byte {
	return AppendJSONArray(b, v, func(b []byte, x JSONFloat) []byte { return x.AppendJSON(b) })
}

// AppendJSONInts appends v as encoding/json writes an []int (nil: null).
func AppendJSONInts(b []byte, v []int) []byte {
	return AppendJSONArray(b, v, func(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) })
}

// AppendJSONArray appends v as encoding/json writes a slice: null when v
// is nil, else its elements, each written by elem, between brackets.
func AppendJSONArray[T any](b []byte, v []T, elem func([]byte, T) []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, x)
	}
	return append(b, ']')
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *JSONFloat) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*f = JSONFloat(math.NaN())
		return nil
	case `"Infinity"`:
		*f = JSONFloat(math.Inf(1))
		return nil
	case `"-Infinity"`:
		*f = JSONFloat(math.Inf(-1))
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return errors.New("learn: not a number: " + string(b))
	}
	*f = JSONFloat(v)
	return nil
}

// Floats converts a float64 slice for JSON (nil stays nil).
func Floats(v []float64) []JSONFloat {
	if v == nil {
		return nil
	}
	out := make([]JSONFloat, len(v))
	for i, x := range v {
		out[i] = JSONFloat(x)
	}
	return out
}

// Float64s converts back from Floats.
func Float64s(v []JSONFloat) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
