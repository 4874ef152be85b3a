package results

import (
	"sort"
	"strings"
)

// Method is what the views need to know of one method label of a study,
// and all they may know of the registry: the runner records one per label
// in the manifest, so that reports, figures and the gate name and order
// methods without importing the learners.
type Method struct {
	// Label is the results.csv method column ("fgrt-fixed", "cart@text").
	Label string `json:"label"`
	// Method is the registry method the label runs ("fgrt").
	Method string `json:"method"`
	// DisplayName is the name shown for the label's base, the label without
	// its "@variant" suffix ("FGRT (Q1+Q2 fixed)" for fgrt-fixed); a
	// variant is shown as DisplayName + "@" + variant.
	DisplayName string `json:"display_name"`
	// Order is the base's position in the registry's presentation order,
	// -1 when the base is not a registry name (such bases follow the known
	// ones alphabetically).
	Order int `json:"order"`
	// Stochastic: the method's results depend on its seed.
	Stochastic bool `json:"stochastic,omitempty"`
}

// Presentation says how the views show method labels: display names and
// order. The zero value shows every label as it is, in alphabetical order
// (what results without a manifest can say).
type Presentation struct {
	// Names maps a label's base (the label without "@variant") to its
	// display name; bases not listed are shown as they are.
	Names map[string]string
	// Order lists bases in display order; others follow alphabetically.
	Order []string
}

// PresentationOf collects the display names and order of a study's
// method entries (from its manifest).
func PresentationOf(ms []Method) Presentation {
	p := Presentation{Names: map[string]string{}}
	rank := map[string]int{}
	for _, m := range ms {
		base, _ := SplitVariant(m.Label)
		if m.DisplayName != "" {
			p.Names[base] = m.DisplayName
		}
		if _, seen := rank[base]; !seen && m.Order >= 0 {
			rank[base] = m.Order
			p.Order = append(p.Order, base)
		}
	}
	sort.SliceStable(p.Order, func(i, j int) bool { return rank[p.Order[i]] < rank[p.Order[j]] })
	return p
}

// SplitVariant splits a method label "cart@text" into ("cart", "text").
func SplitVariant(label string) (base, variant string) {
	if i := strings.IndexByte(label, '@'); i >= 0 {
		return label[:i], label[i+1:]
	}
	return label, ""
}

// DisplayName returns the name shown for a method label: its base's
// display name, a variant keeping its suffix ("cart@text" → "CART@text");
// unknown bases are shown as they are.
func (p Presentation) DisplayName(label string) string {
	base, variant := SplitVariant(label)
	name, ok := p.Names[base]
	if !ok {
		name = base
	}
	if variant != "" {
		return name + "@" + variant
	}
	return name
}

// Sort orders method labels: known bases in Order, unknown bases
// alphabetically after them, each base followed by its variants sorted.
func (p Presentation) Sort(labels []string) {
	rank := make(map[string]int, len(p.Order))
	for i, b := range p.Order {
		if _, dup := rank[b]; !dup {
			rank[b] = i
		}
	}
	rankOf := func(b string) int {
		if r, ok := rank[b]; ok {
			return r
		}
		return len(p.Order)
	}
	sort.SliceStable(labels, func(i, j int) bool {
		bi, vi := SplitVariant(labels[i])
		bj, vj := SplitVariant(labels[j])
		ri, rj := rankOf(bi), rankOf(bj)
		if ri != rj {
			return ri < rj
		}
		if bi != bj {
			return bi < bj
		}
		return vi < vj
	})
}
