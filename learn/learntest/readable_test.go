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
		{-0.656396, "not-unscaled", "unscale 1000v+5: rule 1 reads \"-0.6564\" where \"-651.4\""},
		{0.0180732, "full-precision", "unscale 1000v+5: rule 1 reads \"23.0732\" where \"23.07\""},
		{0.5, "rule-dropped", "1 rule lines, Rules has 2"},
		{0.5, "words-changed", "differ in more than their numbers"},
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
