package reports

import (
	"bytes"
	"sort"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
)

// legend collects the marks and abbreviations a report used, so that each
// is explained once, at the end of REPORT.md.
type legend struct {
	used     map[string]bool
	variants map[string]bool
	// methods pairs each display name with its results.csv label.
	methods []string
}

func newLegend() *legend { return &legend{used: map[string]bool{}, variants: map[string]bool{}} }

func (l *legend) use(mark string) { l.used[mark] = true }

// variant records a method label's "@suffix".
func (l *legend) variant(label string) {
	if _, v := results.SplitVariant(label); v != "" {
		l.variants[v] = true
	}
}

var legendText = []struct{ mark, text string }{
	{"†", "the configuration of each fold was chosen by its test-fold accuracy (the paper's rule for FGRT and FGRT*): an optimistic estimate; a paper value with † was chosen the same way by the paper"},
	{"‡", "a stochastic learner run with several seeds: mean ± sd over the seeds of each seed's accuracy (the seed table places the paper's value among them)"},
	{"§", "at chance: the cell's balanced accuracy does not exceed the majority-class baseline's on the same dataset (the method learned nothing a constant prediction would not)"},
	{"pp", "percentage points"},
	{"CD", "Nemenyi critical difference of mean ranks at α = 0.05: two methods whose mean ranks differ by less are not significantly different"},
	{"ROPE", "region of practical equivalence of the Bayesian tests: differences within ± the ROPE count as practically equal"},
	{"P(A>B), P(=), P(B>A)", "posterior probabilities that A is practically better, practically equivalent to B, B practically better (Bayesian signed-rank test over datasets, Benavoli et al. 2017)"},
	{"NB", "Nadeau–Bengio corrected resampled t-test on one dataset's folds (correlation ρ = 1/k)"},
	{"n/a", "not applicable: a test over fewer than two datasets (or with nothing to go on) has no p-value"},
}

// markdown renders the legend section.
func (l *legend) markdown() []byte {
	var b bytes.Buffer
	b.WriteString("## Legend\n\n")
	for _, e := range legendText {
		if l.used[e.mark] || e.mark == "pp" || e.mark == "n/a" {
			b.WriteString("- **" + mdEscape(e.mark) + "**: " + mdEscape(e.text) + ".\n")
		}
	}
	if len(l.methods) > 0 {
		b.WriteString("- **Methods** (display name = method label in results.csv and analysis.json): " + mdEscape(strings.Join(l.methods, "; ")) + ".\n")
	}
	vs := make([]string, 0, len(l.variants))
	for v := range l.variants {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	// Each name escaped on its own: the bold marks between them are
	// Markdown, not text (escaping the joined string printed them).
	for i, v := range vs {
		vs[i] = "**@" + mdEscape(v) + "**"
	}
	if len(vs) > 0 {
		b.WriteString("- " + strings.Join(vs, ", ") + ": a method label's suffix names a variant of the method run over its grid of that name (e.g. CART@text: CART over its `text` grid), each configuration of which is a sweep point or chosen by inner cross-validation; the name without a suffix is the method with its defaults.\n")
	}
	b.WriteString("\n")
	return b.Bytes()
}
