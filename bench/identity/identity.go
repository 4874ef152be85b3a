// Package identity defines what a work unit is: the one value from which
// results.csv keys, resume, shards, merge, the manifest and the results gate
// all decide whether two rows come from the same experiment.
//
// A study expands into groups, one per (protocol, dataset, method label).
// A Group holds everything that determines the rows of its units: the
// protocol and the options it reads, the dataset's normalised checksum, the
// method, its implementation version, every configuration with defaults
// resolved (without execution-only parameters such as FGA's workers, which
// cannot change a row) and the selection rule. Repeat, fold and seed complete a unit.
// Two units with the same key were made by the same experiment; anything
// that could change a row changes the key.
package identity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
)

// Group is the identity shared by the units of one (protocol, dataset,
// method label) of a study.
type Group struct {
	Protocol string `json:"protocol"`
	// ProtocolRevision counts the changes of the protocol's preparation
	// that change rows it made before (protocol.Revision), so that such
	// rows are never resumed or merged with new ones. Zero is left out of
	// the hash: a protocol never so changed keeps its units' keys.
	ProtocolRevision int `json:"protocol_revision,omitempty"`
	// Options are the protocol options the protocol reads (its declared
	// protocol.Protocol.Reads, which a test holds to every option field),
	// as canonical JSON (sorted keys): an option another protocol reads
	// does not change this protocol's units.
	Options map[string]any `json:"options"`
	Dataset string         `json:"dataset"`
	// DatasetSHA256 identifies the dataset's parsed table
	// (datasets.Identity): "content:" and a SHA-256 of the table, or, for
	// the ten KEEL tables the registry pins, their pinned normalised file
	// checksum. Earlier versions recorded a data file's normalised
	// checksum here (bare hex).
	DatasetSHA256 string `json:"dataset_sha256"`
	Label         string `json:"label"`
	Method        string `json:"method"`
	// MethodVersion is the learner's implementation version declared in the
	// method registry; a change of behaviour bumps it.
	MethodVersion int `json:"method_version"`
	// Selection is the study's selection rule ("" = the protocol's default).
	Selection string `json:"selection"`
	// Configs lists every configuration, canonical and with defaults
	// resolved, in grid order.
	Configs []string `json:"configs"`
	Repeats int      `json:"repeats"`
	Folds   int      `json:"folds"`
	// Seeds holds the fold seed of each repeat.
	Seeds []int64 `json:"seeds"`
	// RowsPerUnit is the number of results.csv rows a finished unit has
	// (one per configuration, or one when a grid is selected by inner CV).
	RowsPerUnit int `json:"rows_per_unit"`
	// Hash identifies the group; it is computed from the fields above.
	Hash string `json:"hash"`
}

// OptionsMap renders an options struct as the canonical map Group.Options
// holds. Every exported field of the struct takes part.
func OptionsMap(opts any) (map[string]any, error) {
	data, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("identity: protocol options must encode as a JSON object: %v", err)
	}
	return m, nil
}

// ComputeHash returns the group's hash (16 hex digits of a SHA-256 over the
// canonical JSON of every field but Hash).
func (g Group) ComputeHash() string {
	g.Hash = ""
	data, err := json.Marshal(g)
	if err != nil {
		// Options hold only JSON-decoded values; this cannot happen.
		panic("identity: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])[:16]
}

// Slot names the group's place in a study: protocol/dataset/label.
func (g Group) Slot() string { return g.Protocol + "/" + g.Dataset + "/" + g.Label }

// Key is the results.csv key of one unit of the group.
func (g Group) Key(repeat, fold int, seed int64) string {
	return results.UnitKey(g.Protocol, g.Dataset, g.Label, g.Hash, repeat, fold, seed)
}

// Unit is one unit of a study in canonical order.
type Unit struct {
	Group        int // index into Study.Groups
	Repeat, Fold int
	Seed         int64
	Key          string
}

// Study is the identity of a whole study: its groups in canonical order.
type Study struct {
	// Hash identifies the study (a SHA-256 over the group hashes in order).
	Hash  string `json:"hash"`
	Units int    `json:"units"`
	// Groups in canonical order; their units, in order, are the study's
	// canonical unit list that shards divide.
	Groups []Group `json:"groups"`
}

// NewStudy hashes the groups and the study.
func NewStudy(groups []Group) Study {
	s := Study{Groups: groups}
	h := sha256.New()
	for i := range s.Groups {
		g := &s.Groups[i]
		g.Hash = g.ComputeHash()
		fmt.Fprintln(h, g.Hash)
		s.Units += g.Repeats * g.Folds
	}
	s.Hash = hex.EncodeToString(h.Sum(nil))[:16]
	return s
}

// UnitList enumerates the study's units in canonical order: groups in
// order, then repeats, then folds.
func (s Study) UnitList() []Unit {
	out := make([]Unit, 0, s.Units)
	for gi, g := range s.Groups {
		for r := 0; r < g.Repeats; r++ {
			seed := g.Seeds[r]
			for f := 0; f < g.Folds; f++ {
				out = append(out, Unit{Group: gi, Repeat: r, Fold: f, Seed: seed, Key: g.Key(r, f, seed)})
			}
		}
	}
	return out
}

// Keys returns the set of the study's unit keys.
func (s Study) Keys() map[string]bool {
	out := make(map[string]bool, s.Units)
	for _, u := range s.UnitList() {
		out[u.Key] = true
	}
	return out
}

// Verify recomputes every hash and reports a study whose stored hashes do
// not match its content (an edited or corrupted record).
func (s Study) Verify() error {
	for _, g := range s.Groups {
		if h := g.ComputeHash(); h != g.Hash {
			return fmt.Errorf("group %s records hash %s but its content hashes to %s", g.Slot(), g.Hash, h)
		}
	}
	if NewStudy(append([]Group(nil), s.Groups...)).Hash != s.Hash {
		return fmt.Errorf("study hash %s does not match its groups", s.Hash)
	}
	return nil
}

// Conflict describes why a stored study and a new one cannot share a
// directory.
type Conflict struct {
	// Slot is the first protocol/dataset/label that differs.
	Slot string
	// Stored and Current describe the difference ("folds=3" and
	// "folds=5"); Current is empty when the new study lacks the slot.
	Stored, Current string
	// More counts further differing slots.
	More int
}

// Contains checks that the current study includes every group of the
// stored one unchanged (it may add groups: a strict superset). It returns
// nil when it does, and the first difference otherwise.
func Contains(current, stored Study) *Conflict {
	bySlot := make(map[string]Group, len(current.Groups))
	for _, g := range current.Groups {
		bySlot[g.Slot()] = g
	}
	var c *Conflict
	for _, old := range stored.Groups {
		cur, ok := bySlot[old.Slot()]
		if ok && cur.Hash == old.Hash {
			continue
		}
		if c != nil {
			c.More++
			continue
		}
		c = &Conflict{Slot: old.Slot()}
		if ok {
			c.Stored, c.Current = Diff(old, cur)
		}
	}
	return c
}

// Diff describes how two groups of the same slot differ, as "name=value"
// lists for each side (e.g. "folds=3" and "folds=5").
func Diff(a, b Group) (string, string) {
	var as, bs []string
	add := func(name string, x, y any) {
		xs, ys := fmt.Sprint(x), fmt.Sprint(y)
		if xs != ys {
			as = append(as, name+"="+xs)
			bs = append(bs, name+"="+ys)
		}
	}
	for _, k := range unionKeys(a.Options, b.Options) {
		add(k, optionValue(a.Options, k), optionValue(b.Options, k))
	}
	if a.DatasetSHA256 != b.DatasetSHA256 {
		as = append(as, "dataset "+a.Dataset+" sha256="+dataIdentity(a.DatasetSHA256, b.DatasetSHA256))
		bs = append(bs, "dataset "+b.Dataset+" sha256="+dataIdentity(b.DatasetSHA256, a.DatasetSHA256))
	}
	add("protocol revision", a.ProtocolRevision, b.ProtocolRevision)
	add("method", a.Method, b.Method)
	add(a.Method+" version", a.MethodVersion, b.MethodVersion)
	add("selection", orDefault(a.Selection), orDefault(b.Selection))
	if len(a.Configs) != len(b.Configs) {
		add("configurations", len(a.Configs), len(b.Configs))
	} else {
		for i := range a.Configs {
			if a.Configs[i] != b.Configs[i] {
				x, y := configDiff(a.Configs[i], b.Configs[i])
				as, bs = append(as, x), append(bs, y)
				break
			}
		}
	}
	add("repeats", a.Repeats, b.Repeats)
	add("folds", a.Folds, b.Folds)
	add("seeds", a.Seeds, b.Seeds)
	add("rows per unit", a.RowsPerUnit, b.RowsPerUnit)
	if len(as) == 0 {
		// Same content, different hash: a record written by another
		// version of the identity rules.
		return "identity " + a.Hash, "identity " + b.Hash
	}
	return strings.Join(dedupe(as), ", "), strings.Join(dedupe(bs), ", ")
}

// contentPrefix starts the identity of a parsed table
// (datasets.ContentPrefix); a bare hex value is a normalised file checksum.
const contentPrefix = "content:"

// dataIdentity shortens a dataset identity for a message, and says so when
// it is a file checksum facing a table identity: a data file of the user's
// own identified by an earlier fgrtbench, which hashed its bytes
// (docs/data.md#identity-of-a-dataset).
func dataIdentity(id, other string) string {
	if id != "" && !strings.HasPrefix(id, contentPrefix) && strings.HasPrefix(other, contentPrefix) {
		return short(id) + " (a file checksum: recorded by an fgrtbench that identified data files by their bytes)"
	}
	return short(id)
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func optionValue(m map[string]any, k string) any {
	v, ok := m[k]
	if !ok {
		return "(unset)"
	}
	return v
}

func orDefault(s string) string {
	if s == "" {
		return "(protocol default)"
	}
	return s
}

func short(h string) string {
	n := 12
	if strings.HasPrefix(h, contentPrefix) {
		n += len(contentPrefix)
	}
	if len(h) > n {
		return h[:n] + "…"
	}
	return h
}

// configDiff names the parameters that differ between two canonical
// configurations ("name=value;name=value").
func configDiff(a, b string) (string, string) {
	pa, pb := params(a), params(b)
	var as, bs []string
	for _, k := range unionKeys(pa, pb) {
		if pa[k] != pb[k] {
			as = append(as, k+"="+pa[k])
			bs = append(bs, k+"="+pb[k])
		}
	}
	return strings.Join(as, ", "), strings.Join(bs, ", ")
}

func params(c string) map[string]string {
	m := map[string]string{}
	for _, p := range strings.Split(c, ";") {
		if k, v, ok := strings.Cut(p, "="); ok {
			m[k] = v
		}
	}
	return m
}

// unionKeys returns the keys of two maps, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}
