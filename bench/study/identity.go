package study

import (
	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// Identity computes the study's identity from its resolved methods and
// the normalised checksum of each dataset, together with its units in
// canonical order. It is the only place that decides what a unit is.
func (s Study) Identity(ms []ResolvedMethod, checksums map[string]string) (identity.Study, []Unit, error) {
	all, err := identity.OptionsMap(s.Options)
	if err != nil {
		return identity.Study{}, nil, err
	}
	var groups []identity.Group
	var methodOf []int
	for _, p := range s.Protocols {
		l := s.Layout(p)
		opts, err := optionsRead(p, all)
		if err != nil {
			return identity.Study{}, nil, err
		}
		for _, d := range s.Datasets {
			for mi, m := range ms {
				if !m.Spec.RunsUnder(p) {
					continue // no group: the other groups' hashes, and so their keys, are unchanged
				}
				g := groupOf(m, l)
				g.Protocol, g.Options, g.Dataset, g.DatasetSHA256 = p, opts, d, checksums[d]
				g.ProtocolRevision = protocol.Revision(p, s.Options, d)
				groups = append(groups, g)
				methodOf = append(methodOf, mi)
			}
		}
	}
	id := identity.NewStudy(groups)
	list := id.UnitList()
	units := make([]Unit, len(list))
	for i, u := range list {
		g := id.Groups[u.Group]
		units[i] = Unit{
			Protocol: g.Protocol, Dataset: g.Dataset, Method: methodOf[u.Group], Label: g.Label,
			Repeat: u.Repeat, Fold: u.Fold, Seed: u.Seed, Key: u.Key, Rows: g.RowsPerUnit,
		}
	}
	return id, units, nil
}

// groupOf is the part of a group's identity that a method and a
// protocol's layout fix: the method, its configurations in canonical
// form, its repeats, folds and seeds, and its rows per unit.
func groupOf(m ResolvedMethod, l protocol.Layout) identity.Group {
	repeats := repeatsOf(m, l)
	rows := 1
	if len(m.Configs) > 1 || m.Selection == protocol.SelectSweep {
		sel := m.Selection
		if sel == "" {
			sel = l.GridSelection
		}
		rows = m.ExpectedRows(sel)
	}
	cfgs := make([]string, len(m.Configs))
	for i, c := range m.Configs {
		cfgs[i] = m.Method.Canonical(c)
	}
	return identity.Group{
		Label: m.Label, Method: m.Method.Name, MethodVersion: m.Method.Version,
		Selection: m.Selection, Configs: cfgs,
		Repeats: repeats, Folds: l.Folds, Seeds: l.Seeds[:repeats], RowsPerUnit: rows,
	}
}

// optionsRead keeps the options protocol p reads (protocol.Protocol.Reads):
// changing an option another protocol reads leaves p's units alone.
func optionsRead(p string, all map[string]any) (map[string]any, error) {
	proto, err := protocol.Lookup(p)
	if err != nil {
		return nil, err
	}
	opts := map[string]any{}
	for _, name := range proto.Reads() {
		if v, ok := all[name]; ok {
			opts[name] = v
		}
	}
	// Missing-value policies drop and error evaluate the same rows (error
	// only refuses data drop would change), so neither is part of a unit's
	// identity: results made before the policy existed, under drop, stay
	// valid, and a study run with error resumes one run with drop. Only
	// impute changes rows.
	if v, ok := opts["missing"]; ok && v != protocol.MissingImpute {
		delete(opts, "missing")
	}
	return opts, nil
}

// IdentityOf computes a study's identity from the checksums of its
// datasets (as a manifest records them), without loading any data.
func IdentityOf(s Study, checksums map[string]string) (identity.Study, error) {
	ms, err := s.Resolve()
	if err != nil {
		return identity.Study{}, err
	}
	id, _, err := s.Identity(ms, checksums)
	return id, err
}

// ExecutionRecord lists the execution-only parameter values each method's
// configurations ran with ("label: workers=0"), for the manifest: the
// identity leaves them out, so only the manifest says what was used.
func ExecutionRecord(ms []ResolvedMethod) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range ms {
		for _, c := range m.Configs {
			ex := m.Method.Execution(c)
			if ex == nil {
				continue
			}
			line := m.Label + ": " + ex.String()
			if !seen[line] {
				seen[line] = true
				out = append(out, line)
			}
		}
	}
	return out
}
