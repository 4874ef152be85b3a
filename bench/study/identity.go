package study

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
)

// Identity computes the study's identity from its resolved methods and
// the normalised checksum of each dataset, together with its units in
// canonical order. It is the only place that decides what a unit is.
func (s Study) Identity(ms []ResolvedMethod, checksums map[string]string) (identity.Study, []Unit, error) {
	if err := oneTableOnce(s.Datasets, checksums); err != nil {
		return identity.Study{}, nil, err
	}
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
				groups = append(groups, identity.Group{
					Protocol: p, Options: opts, Dataset: d, DatasetSHA256: checksums[d],
					Label: m.Label, Method: m.Method.Name, MethodVersion: m.Method.Version,
					Selection: m.Selection, Configs: cfgs,
					Repeats: repeats, Folds: l.Folds, Seeds: l.Seeds[:repeats], RowsPerUnit: rows,
				})
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

// oneTableOnce refuses a study that names one table of data twice (two
// copies of a file, two spellings of one path, a registry name and a copy
// of its file): the table would enter every comparison twice, and a
// Friedman or Nemenyi test would count it as two datasets. Identities are
// of the parsed table (datasets.Identity), so a byte-level difference does
// not hide the duplicate. Names without a checksum (none loaded) are not
// compared.
func oneTableOnce(names []string, checksums map[string]string) error {
	first := map[string]string{}
	for _, d := range names {
		sum := checksums[d]
		if sum == "" {
			continue
		}
		if prev, ok := first[sum]; ok && prev != d {
			return fmt.Errorf("datasets %s and %s are one table (identity %s): a study names each table of data once (remove one of them)", prev, d, sum)
		}
		first[sum] = d
	}
	return nil
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

// DatasetChecksum is the checksum a dataset is identified by in a study's
// identity: datasets.Identity, which depends on the parsed table only (the
// registry's pinned file checksum for the ten KEEL tables, a content
// identity for any other).
func DatasetChecksum(d *datasets.Dataset) string { return datasets.Identity(d) }

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
