package artifacts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/fgrtbench/fgrtbench/learn"
)

// ModelsFile is the fitted-models artifact beside results.csv: one JSON
// object per line (ModelRecord), one gzip member per unit.
const ModelsFile = "models.jsonl.gz"

// ModelRecord is one recorded configuration of one unit, as fitted: its
// rules, the fuzzy partitions they refer to, and the learner's model
// (learn.Description, whose ModelHead it embeds), complete enough to
// reconstruct its predictions.
type ModelRecord struct {
	Key         string `json:"key"`
	ConfigIndex int    `json:"config_index"`
	// ModelHead holds Kind, the layout of Model (empty for a method that
	// does not describe its models: then only Rules is kept), the
	// schema's names and Rules, one string per rule in the learner's
	// order: len(Rules) equals the row's rules column (null when the
	// model gives no rules text).
	learn.ModelHead
	// ReadableRules are Rules for a reader, line for line, where the
	// learner compares features with numeric thresholds (CART, C4.5,
	// RIPPER: learn.ReadableRuler): each threshold mapped back through
	// the fold's scaler to the data's units and printed with 4
	// significant digits (learn.ReadableNumber). Rules and Model keep the
	// learner's units at full precision. Absent for other learners (FGRT's
	// rules name terms, whose corners Partitions holds in both units) and
	// in studies stored before it was recorded.
	ReadableRules []string `json:"readable_rules,omitempty"`
	// ReadableDefault is the default rule of the readable rules (the line
	// starting with learn.DefaultRulePrefix: the class a row no rule
	// covers gets, with its coverage and confidence) for a learner that
	// has one (RIPPER); not a rule Rules counts.
	ReadableDefault string          `json:"readable_default,omitempty"`
	Partitions      []Term          `json:"partitions,omitempty"`
	Model           json.RawMessage `json:"model,omitempty"`
}

// Term is one term of a fuzzy partition (learn.PartitionTerm), in the
// data's own units and in the (scaled) units the learner saw.
type Term struct {
	learn.TermRef
	// Trapezoid is [a, b, c, d] in the units of the dataset file;
	// TrapezoidScaled in the units the learner saw (equal when the
	// protocol does not scale). Both are nil for a crisp term.
	Trapezoid       []learn.JSONFloat `json:"trapezoid,omitempty"`
	TrapezoidScaled []learn.JSONFloat `json:"trapezoid_scaled,omitempty"`
	// Category is the code a crisp (nominal) term matches.
	Category *learn.JSONFloat `json:"category,omitempty"`
}

// Unscale maps a value of feature j from the units the learner saw back
// to the data's own units (nil: the units are the same).
type Unscale func(j int, v float64) float64

// NewModelRecord records a model description under its unit and
// configuration; unscale converts the partitions' corners back to the
// data's units.
func NewModelRecord(key string, configIndex int, d learn.Description, unscale Unscale) ModelRecord {
	m := ModelRecord{Key: key, ConfigIndex: configIndex, ModelHead: d.ModelHead, Model: d.Model}
	for _, p := range d.Partitions {
		t := Term{TermRef: p.TermRef, Category: p.Category}
		if p.Trapezoid != nil {
			t.TrapezoidScaled = p.Trapezoid
			t.Trapezoid = make([]learn.JSONFloat, len(p.Trapezoid))
			for i, v := range p.Trapezoid {
				if unscale != nil {
					v = learn.JSONFloat(unscale(p.Feature, float64(v)))
				}
				t.Trapezoid[i] = v
			}
		}
		m.Partitions = append(m.Partitions, t)
	}
	return m
}

// Description returns the learn.Description the record keeps (partitions
// in the learner's units), for learn.Reconstruct.
func (m ModelRecord) Description() learn.Description {
	d := learn.Description{ModelHead: m.ModelHead, Model: m.Model}
	for _, t := range m.Partitions {
		d.Partitions = append(d.Partitions, learn.PartitionTerm{TermRef: t.TermRef, Trapezoid: t.TrapezoidScaled, Category: t.Category})
	}
	return d
}

// ModelsMember renders the model records of one unit as one gzip member of
// JSON lines.
func ModelsMember(recs []ModelRecord) ([]byte, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("results: a unit without models")
	}
	e := NewUnitEncoder(PredictionColumns)
	defer e.Release()
	for _, r := range recs {
		if err := e.AddModel(r); err != nil {
			return nil, err
		}
	}
	return e.mod.finish()
}

// Models is a decoded models file.
type Models struct {
	Records []ModelRecord
	// Units lists the units' keys in file order (one member each).
	Units []string
}

// ReadModels decodes a whole models.jsonl.gz. A torn tail is an error
// unless allowTorn; then it is dropped and torn reports it. Members are
// decoded in parallel (parseMembers) and joined in file order: the result
// and the first error are those of decoding the members one by one.
func ReadModels(data []byte, allowTorn bool) (ms Models, torn bool, err error) {
	return readModels(data, allowTorn, readWorkers(), true)
}

// modelMember is one unit member's records as decoded.
type modelMember struct {
	recs []ModelRecord
	unit string
	err  error
}

// readModels is ReadModels on workers; without keepModel every record's
// model JSON is checked but not kept (Model is nil).
func readModels(data []byte, allowTorn bool, workers int, keepModel bool) (ms Models, torn bool, err error) {
	defer pauseGC(len(data))()
	decode := func(k int, mem Member, r *modelMember) { decodeModelMember(k, mem, r, keepModel) }
	members, torn, end, err := parseMembers(data, workers, nil, decode, func(r *modelMember) bool { return r.err != nil })
	if err != nil {
		return ms, torn, fmt.Errorf("results: %s: %w", ModelsFile, err)
	}
	n := 0
	for _, r := range members {
		n += len(r.recs)
	}
	ms.Records = make([]ModelRecord, 0, n)
	for _, r := range members {
		if r.err != nil {
			return ms, torn, r.err
		}
		if r.unit != "" {
			ms.Units = append(ms.Units, r.unit)
		}
		ms.Records = append(ms.Records, r.recs...)
	}
	if torn && !allowTorn {
		return ms, torn, fmt.Errorf("results: %s is damaged at byte %d (not a whole gzip member)", ModelsFile, end)
	}
	return ms, torn, nil
}

// modelScans reuses the scanners of decodeModelMember, and the memory of
// their intern maps, across members: behind the field tables' function
// values a scanner lives on the heap.
var modelScans = sync.Pool{New: func() any { return &jsonScan{intern: map[string]string{}} }}

// decodeModelMember decodes the JSON lines of member k (0-based; messages
// count members from 1) into r: each line by fastModel, or by
// encoding/json where fastModel declines.
func decodeModelMember(k int, mem Member, r *modelMember, keepModel bool) {
	m := k + 1
	scan := modelScans.Get().(*jsonScan)
	defer func() {
		clear(scan.intern) // each member interns its own strings
		*scan = jsonScan{intern: scan.intern, strs: scan.strs[:0]}
		modelScans.Put(scan)
	}()
	scan.keepModel = keepModel
	data := bytes.TrimSuffix(mem.Data, []byte("\n"))
	for i := 0; ; i++ {
		line, rest, more := bytes.Cut(data, []byte("\n"))
		data = rest
		rec, ok := fastModel(scan, line)
		if !ok {
			rec = ModelRecord{}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(&rec); derr != nil {
				r.err = fmt.Errorf("results: %s member %d line %d: %v", ModelsFile, m, i+1, derr)
				return
			}
			if !keepModel {
				rec.Model = nil
			}
		}
		if rec.Key == "" {
			r.err = fmt.Errorf("results: %s member %d line %d: no key", ModelsFile, m, i+1)
			return
		}
		if i == 0 {
			r.unit = rec.Key
		} else if rec.Key != r.unit {
			r.err = fmt.Errorf("results: %s member %d mixes units %s and %s", ModelsFile, m, r.unit, rec.Key)
			return
		}
		r.recs = append(r.recs, rec)
		if !more {
			return
		}
	}
}

// FromModel builds the artifacts of one recorded configuration from its
// fitted model: the predictions of its test rows (rows: their indices
// among the data rows of the dataset file; pred: the model's predictions,
// as the caller scored them), with the model's scores when it is a
// learn.Scorer, and its model record, with its description when it is a
// learn.Describer (else its rules alone, under an empty kind). unscale
// maps the partitions back to the data's units (nil: no scaling).
func FromModel(key string, configIndex int, s learn.Schema, m learn.Model, xte [][]float64, rows, yte, pred []int,
	unscale Unscale) (PredictionSet, ModelRecord, error) {
	ps := PredictionSet{Key: key, ConfigIndex: configIndex, Classes: make([]string, len(s.Classes)), Rows: rows, YTrue: yte, YPred: pred}
	for k := range s.Classes {
		ps.Classes[k] = s.ClassName(k)
	}
	if sc, ok := m.(learn.Scorer); ok {
		ps.Scores = sc.Scores(xte)
	}
	if err := ps.check(); err != nil {
		return ps, ModelRecord{}, err
	}
	var d learn.Description
	if ds, ok := m.(learn.Describer); ok {
		var err error
		if d, err = ds.Describe(s); err != nil {
			return ps, ModelRecord{}, fmt.Errorf("results: describing the model of %s config %d: %w", key, configIndex, err)
		}
	} else {
		d = learn.Description{ModelHead: learn.ModelHead{Classes: ps.Classes}}
		if text := m.Rules(s); strings.TrimSpace(text) != "" { // else: no rules text, rules unknown
			d.Rules = learn.RuleLines(text)
		}
		for j := range s.Features {
			d.Features = append(d.Features, s.FeatureName(j))
		}
	}
	if cx := m.Complexity(); d.Rules != nil && len(d.Rules) != cx.Rules {
		return ps, ModelRecord{}, fmt.Errorf("results: the model of %s config %d prints %d rules (lines starting with \"IF \") but counts %d; "+
			"every counted rule must be one such line (or run with --no-artifacts)", key, configIndex, len(d.Rules), cx.Rules)
	}
	rec := NewModelRecord(key, configIndex, d, unscale)
	if rr, ok := m.(learn.ReadableRuler); ok && d.Rules != nil {
		text := rr.ReadableRules(s, learn.Unscale(unscale))
		rec.ReadableRules, rec.ReadableDefault = learn.RuleLines(text), learn.DefaultRule(text)
		if len(rec.ReadableRules) != len(d.Rules) {
			return ps, ModelRecord{}, fmt.Errorf("results: the model of %s config %d prints %d readable rules for %d rules",
				key, configIndex, len(rec.ReadableRules), len(d.Rules))
		}
	}
	return ps, rec, nil
}

// Readable returns the rules for a reader: ReadableRules where the record
// keeps them, else Rules as the learner printed them. learnerUnits reports
// that those are the rules of a learner with numeric thresholds
// (ThresholdKinds) that the record keeps in the units the learner saw
// only: a study stored before readable rules were recorded.
func (m ModelRecord) Readable() (rules []string, learnerUnits bool) {
	if len(m.ReadableRules) > 0 {
		return m.ReadableRules, false
	}
	return m.Rules, len(m.Rules) > 0 && ThresholdKinds[m.Kind]
}

// ThresholdKinds are the learn.Description kinds whose rules compare
// features with numeric thresholds and whose models therefore record
// ReadableRules (CART and its entropy variant, C4.5, RIPPER), by name:
// the results contract does not import the learners (a test of the
// registry checks the list against them).
var ThresholdKinds = map[string]bool{"cart.tree/1": true, "c45.tree/1": true, "ripper.rulesets/1": true}
