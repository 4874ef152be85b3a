package reports

import (
	"strings"
	"testing"
)

// TestLegendVariants: the variants line bolds each "@name" as Markdown
// (the marks between names are not escaped into text), and a name's own
// Markdown characters are escaped.
func TestLegendVariants(t *testing.T) {
	for _, c := range []struct {
		labels []string
		want   string
	}{
		{[]string{"cart@text"}, "- **@text**: a method label's suffix"},
		{[]string{"cart@text", "fgrt@ofat", "c45@text", "cart"}, "- **@ofat**, **@text**: a method label's suffix"},
		{[]string{"cart@a_b*c"}, `- **@a\_b\*c**: a method label's suffix`},
	} {
		l := newLegend()
		for _, m := range c.labels {
			l.variant(m)
		}
		got := string(l.markdown())
		if !strings.Contains(got, c.want) {
			t.Errorf("variants %v: legend\n%s\nlacks %q", c.labels, got, c.want)
		}
		if strings.Contains(got, `\*\*`) {
			t.Errorf("variants %v: escaped bold marks in\n%s", c.labels, got)
		}
	}
}
