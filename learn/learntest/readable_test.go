package learntest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// readableStump is a stump "IF a <= cut" whose ReadableRules can be
// faulty in the ways CheckReadableRules must catch.
type readableStump struct {
	stump
	fault string
}

func (r *readableStump) ReadableRules(sc learn.Schema, unscale learn.Unscale) string {
	cut := r.Cut
	if unscale != nil && r.fault != "not-unscaled" {
		cut = unscale(0, cut)
	}
	num := learn.ReadableNumber(cut)
	switch r.fault {
	case "full-precision":
		num = fmt.Sprint(cut)
	case "rule-dropped":
		return fmt.Sprintf("IF a <= %s THEN class %s\n", num, sc.ClassName(r.Left))
	case "words-changed":
		return strings.ReplaceAll(fmt.Sprintf("IF a <= %s THEN class %s\nIF a > %s THEN class %s\n", num, sc.ClassName(r.Left), num, sc.ClassName(r.Right)), "<=", "<")
	}
	return fmt.Sprintf("IF a <= %s THEN class %s\nIF a > %s THEN class %s\n", num, sc.ClassName(r.Left), num, sc.ClassName(r.Right))
}

func TestCheckReadableRules(t *testing.T) {
	sc := Problems()[0].Schema
	for _, c := range []struct {
		cut     float64
		fault   string
		wantErr string
	}{
		{-0.656396, "", ""},
		{0.0180732, "", ""},
		{-0.656396, "not-unscaled", "unscale 1000v+5: rule 1 reads \"IF a <= -0.6564 THEN class red\""},
		{0.0180732, "full-precision", "(THEN class red; 0 in (, 0.0180732] vs THEN class red; 0 in (, 0.01807])"},
		{0.5, "rule-dropped", "1 rule lines, Rules has 2"},
		{0.5, "words-changed", "condition \"a < 0.5000\" is none of <=, >, ="},
	} {
		m := &readableStump{stump: stump{Cut: c.cut, Left: 0, Right: 1}, fault: c.fault}
		err := CheckReadableRules(m, sc)
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("cut %v: %v", c.cut, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("cut %v, fault %s: error %v, want one containing %q", c.cut, c.fault, err, c.wantErr)
		}
	}
}

// textRules is a model whose Rules and ReadableRules are given texts (its
// readable text the same for any unscale), for the spellings
// CheckReadableRules must accept or refuse.
type textRules struct {
	stump
	rules, readable string
}

func (r *textRules) Rules(learn.Schema) string                        { return r.rules }
func (r *textRules) ReadableRules(learn.Schema, learn.Unscale) string { return r.readable }

func TestCheckReadableRulesIntervals(t *testing.T) {
	sc := Problems()[0].Schema // features a, b, c
	for _, c := range []struct {
		name, rules, readable, wantErr string
	}{
		{"merged", "IF a <= 0.7 AND b > 0.1 AND a <= 0.3 THEN class red\n",
			"IF a <= 0.3000 AND b > 0.1000 THEN class red  [coverage 0.250, confidence 1.000]\n", ""},
		{"interval", "IF a > 0.1 AND b <= 2 AND a <= 0.3 THEN class red\n",
			"IF 0.1000 < a <= 0.3000 AND b <= 2.000 THEN class red\n", ""},
		{"loosest bound kept", "IF a <= 0.7 AND a <= 0.3 THEN class red\n",
			"IF a <= 0.7000 THEN class red\n", "differ in more than their spelling"},
		{"a bound dropped", "IF a > 0.1 AND a <= 0.3 THEN class red\n",
			"IF a <= 0.3000 THEN class red\n", "differ in more than their spelling"},
		{"other class", "IF a <= 0.3 THEN class red\n", "IF a <= 0.3000 THEN class green\n", "differ in more than their spelling"},
		{"two intervals", "IF a > 0.1 AND a <= 0.3 THEN class red\n",
			"IF a > 0.1000 AND a <= 0.3000 THEN class red\n", "feature a has two intervals"},
		{"a bin", "IF a=0.1-0.3 AND b=<2 AND c=>-1 THEN class red\n# p\n",
			"IF 0.1000 < a <= 0.3000 AND b <= 2.000 AND c > -1.000 THEN class red\nELSE class green  [coverage 0.500, confidence 0.600]\n", ""},
		{"a negative bin", "IF a=-1.2--0.4 THEN class red\n", "IF -1.200 < a <= -0.4000 THEN class red\n", ""},
		{"a raw value", "IF a=5 THEN class red\n", "IF a = 5.000 THEN class red\n", ""},
		{"bad default stats", "IF a <= 0.3 THEN class red\n",
			"IF a <= 0.3000 THEN class red\nELSE class green  [coverage 1.5, confidence 0.600]\n", "the default rule ends in"},
	} {
		m := &textRules{rules: c.rules, readable: c.readable}
		// the readable text ignores unscale: check the first case only
		err := CheckReadableRules(m, sc)
		if err != nil && strings.HasPrefix(err.Error(), "unscale 1000v+5") {
			err = nil
		}
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		}
	}
}
