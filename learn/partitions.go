package learn

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fgrtbench/fgrtbench/fuzzy"
)

// DescribedTerm is one term of a described fuzzy partition: crisp terms
// match Category exactly; the others are the trapezoid [a, b, c, d],
// evaluated as the learner that recorded it evaluates it.
type DescribedTerm struct {
	Name      string        `json:"name"`
	Crisp     bool          `json:"crisp"`
	Category  JSONFloat     `json:"category,omitempty"`
	Trapezoid *[4]JSONFloat `json:"trapezoid,omitempty"`
}

// DescribedPartition is the JSON of one feature's fuzzy partition in a
// model description, in the units the learner saw. The fuzzy learners
// (FGRT, FuzzyCART) share it, so that a partition is recorded and read back
// one way.
type DescribedPartition struct {
	Nominal bool            `json:"nominal"`
	Min     JSONFloat       `json:"min"`
	Max     JSONFloat       `json:"max"`
	Terms   []DescribedTerm `json:"terms"`
}

// DescribePartitions describes a model's partitions, and lists as
// PartitionTerms the (feature, term) pairs used says its rules use, in
// feature and term order; termName names a term for the reader.
func DescribePartitions(parts []fuzzy.Partition, s Schema, used map[[2]int]bool, termName func(f, t int) string) ([]DescribedPartition, []PartitionTerm) {
	var out []DescribedPartition
	var terms []PartitionTerm
	for f, p := range parts {
		dp := DescribedPartition{Nominal: p.Nominal, Min: JSONFloat(p.Min), Max: JSONFloat(p.Max)}
		for t, term := range p.Terms {
			dt := DescribedTerm{Name: term.Name, Crisp: term.Crisp}
			pt := PartitionTerm{TermRef: TermRef{Feature: f, FeatureName: s.FeatureName(f), Term: t, TermName: termName(f, t)}}
			if term.Crisp {
				v := JSONFloat(term.Category.Value)
				dt.Category, pt.Category = v, &v
			} else {
				sh := term.Shape
				corners := [4]JSONFloat{JSONFloat(sh.A), JSONFloat(sh.B), JSONFloat(sh.C), JSONFloat(sh.D)}
				dt.Trapezoid, pt.Trapezoid = &corners, corners[:]
			}
			dp.Terms = append(dp.Terms, dt)
			if used[[2]int{f, t}] {
				terms = append(terms, pt)
			}
		}
		out = append(out, dp)
	}
	return out, terms
}

// PartitionsFromDescribed rebuilds the partitions of a description; a term
// that is neither crisp nor a trapezoid is an error.
func PartitionsFromDescribed(dps []DescribedPartition) ([]fuzzy.Partition, error) {
	var out []fuzzy.Partition
	for f, dp := range dps {
		p := fuzzy.Partition{Nominal: dp.Nominal, Min: float64(dp.Min), Max: float64(dp.Max)}
		for t, dt := range dp.Terms {
			term := fuzzy.Term{Name: dt.Name, Crisp: dt.Crisp}
			switch {
			case dt.Crisp:
				term.Category = fuzzy.Category{Value: float64(dt.Category)}
			case dt.Trapezoid != nil:
				c := dt.Trapezoid
				term.Shape = fuzzy.Trapezoid{A: float64(c[0]), B: float64(c[1]), C: float64(c[2]), D: float64(c[3])}
			default:
				return nil, fmt.Errorf("partition %d term %d: neither crisp nor a trapezoid", f, t)
			}
			p.Terms = append(p.Terms, term)
		}
		out = append(out, p)
	}
	return out, nil
}

// AppendDescribedPartitions appends the JSON of dps to b exactly as
// encoding/json writes it from the field tags (null for nil), without
// reflection: a models artifact describes every configuration of every
// unit.
func AppendDescribedPartitions(b []byte, dps []DescribedPartition) ([]byte, error) {
	if dps == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, p := range dps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"nominal":`...)
		b = strconv.AppendBool(b, p.Nominal)
		b = append(b, `,"min":`...)
		b = p.Min.AppendJSON(b)
		b = append(b, `,"max":`...)
		b = p.Max.AppendJSON(b)
		b = append(b, `,"terms":`...)
		if p.Terms == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for k, t := range p.Terms {
				if k > 0 {
					b = append(b, ',')
				}
				name, err := json.Marshal(t.Name)
				if err != nil {
					return nil, err
				}
				b = append(append(b, `{"name":`...), name...)
				b = append(b, `,"crisp":`...)
				b = strconv.AppendBool(b, t.Crisp)
				if t.Category != 0 { // omitempty
					b = append(b, `,"category":`...)
					b = t.Category.AppendJSON(b)
				}
				if t.Trapezoid != nil {
					b = append(b, `,"trapezoid":`...)
					b = AppendJSONFloats(b, t.Trapezoid[:])
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}
