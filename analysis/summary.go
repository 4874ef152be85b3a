package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/stats"
)

// SmallStudy is the largest number of datasets at which ranks over
// datasets are not taken as evidence: the summary then headlines the
// fold-level tests on each dataset.
const SmallStudy = 2

// summaryShown is how many comparisons a summary sentence names before it
// counts the rest; the pairwise tables list them all.
const summaryShown = 8

// FamilyPower is what a family of Wilcoxon comparisons with Holm's
// correction can reach over its datasets: its size (the comparisons that
// are not n/a), the smallest p-value one comparison can give
// (stats.WilcoxonMinP), that p-value after Holm's first step (× the size,
// at most 1), and whether even that is not below Alpha.
type FamilyPower struct {
	Comparisons int     `json:"comparisons"`
	MinP        float64 `json:"min_p"`
	MinPHolm    float64 `json:"min_p_holm"`
	Powerless   bool    `json:"powerless"`
}

// familyPower computes a family's FamilyPower over n datasets.
func familyPower(pairs []Pair, n int) FamilyPower {
	f := FamilyPower{MinP: math.NaN(), MinPHolm: math.NaN()}
	for _, p := range pairs {
		if !p.NA {
			f.Comparisons++
		}
	}
	if f.Comparisons == 0 {
		return f
	}
	f.MinP = stats.WilcoxonMinP(n)
	f.MinPHolm = math.Min(1, float64(f.Comparisons)*f.MinP)
	f.Powerless = !(f.MinPHolm < Alpha)
	return f
}

// postHocPower sets the power of t's post-hoc family (and of its
// secondary all-pairs family).
func postHocPower(t *Tests) {
	f := familyPower(t.Pairs, len(t.Datasets))
	t.Comparisons, t.PostHocMinP, t.PostHocMinPHolm, t.PostHocPowerless = f.Comparisons, f.MinP, f.MinPHolm, f.Powerless
	if t.AllPairs != nil {
		all := familyPower(t.AllPairs, len(t.Datasets))
		t.AllPairsPower = &all
	}
}

// summaryOf writes the plain-language account of t (Tests.Summary): the
// sentences are built from t's numbers only, so every view prints the
// same account.
func summaryOf(t Tests, pres results.Presentation, rope float64) []string {
	name := func(label string) string { return t.EntryName(label, pres) }
	var out []string
	n := len(t.Datasets)
	if n <= SmallStudy && len(t.Pairs) > 0 {
		out = append(out, smallStudySentences(t, name, rope)...)
	}
	out = append(out, competitorSentences(t, pres)...)
	if t.NA != "" {
		return out
	}
	k := len(t.Methods)
	why := "it is exact at any number of datasets, where Friedman's χ² and the Iman–Davenport F are large-sample approximations (shown for reference)"
	if t.Decision.Test == TestFriedmanMonteCarlo {
		why = "it needs no large-sample approximation, unlike Friedman's χ² and the Iman–Davenport F (shown for reference); its p-value is a seeded Monte Carlo estimate with a stated precision"
	}
	prefix := "Omnibus test"
	if n <= SmallStudy {
		prefix = "For the record, the omnibus test"
	}
	if t.Decision.Significant {
		out = append(out, fmt.Sprintf("%s: over %s the %d methods differ significantly (%s, %s, α = %g), rejecting the hypothesis that they perform alike.",
			prefix, nouns(n, "dataset"), k, t.Decision.Name, PText(t.Decision.P), Alpha))
	} else {
		out = append(out, fmt.Sprintf("%s: over %s the %d methods do not differ significantly (%s, %s, α = %g): these data cannot tell them apart.",
			prefix, nouns(n, "dataset"), k, t.Decision.Name, PText(t.Decision.P), Alpha))
	}
	out = append(out, "This test was chosen because "+why+".")
	out = append(out, postHocSentences(t, name)...)
	if t.Best != "" {
		within := make([]string, len(t.WithinCD05))
		for i, m := range t.WithinCD05 {
			within[i] = name(m)
		}
		if len(within) == 0 {
			out = append(out, fmt.Sprintf("No other method's mean rank is within the Nemenyi critical difference (CD = %s) of the best, %s's.", fixed2(t.CD05), name(t.Best)))
		} else {
			out = append(out, fmt.Sprintf("The Nemenyi test cannot tell %s, the best mean rank, from the %s within its critical difference (CD = %s): %s.",
				name(t.Best), nouns(len(within), "method"), fixed2(t.CD05), strings.Join(within, ", ")))
		}
	}
	return out
}

// postHocSentences say which post-hoc family was tested, whether any pair
// can be significant at this number of datasets, which pairs are, the
// effect sizes against the reference, and reconcile a significant omnibus
// test with no significant pair.
func postHocSentences(t Tests, name func(string) string) []string {
	k := len(t.Methods)
	standing := "confirmatory, the omnibus test being significant"
	if t.PostHoc == PostHocExploratory {
		standing = "exploratory, the omnibus test not being significant"
	}
	var out []string
	family := nouns(t.Comparisons, "comparison")
	if na := len(t.Pairs) - t.Comparisons; na > 0 {
		family += fmt.Sprintf(" that apply, %d being n/a (every difference zero)", na)
	}
	if t.Reference != "" {
		out = append(out, fmt.Sprintf("Post-hoc: %s, the reference, against each of the other %d methods, by Wilcoxon signed-rank tests with Holm's correction over the %s; %s.",
			name(t.Reference), k-1, family, standing))
	} else {
		out = append(out, fmt.Sprintf("Post-hoc: every pair of the %d methods, by Wilcoxon signed-rank tests with Holm's correction over the %s; %s.", k, family, standing))
	}
	pairs := t.Pairs
	if t.AllPairs != nil {
		pairs = t.AllPairs
	}
	for _, p := range pairs {
		if p.N > 0 && p.Ties == p.N {
			out = append(out, fmt.Sprintf("%s and %s have the same mean accuracy on every dataset but not the same result on every fold, so they are ranked apart, tied.", name(p.A), name(p.B)))
		}
	}
	if t.PostHocPowerless {
		s := fmt.Sprintf("With %s no Wilcoxon comparison can reach p below %s, and Holm's correction over %s needs p < %g/%d ≈ %s for the first: no pair can be significant at this number of datasets, whatever the data",
			nouns(len(t.Datasets), "dataset"), minPText(len(t.Datasets), t.PostHocMinP), nouns(t.Comparisons, "comparison"), Alpha, t.Comparisons, sig3(Alpha/float64(t.Comparisons)))
		if t.Reference == "" && k > 2 && float64(k-1)*t.PostHocMinP < Alpha {
			s += fmt.Sprintf("; comparing one reference method with the %d others (--reference, or reference: in the spec) would make it possible", k-1)
		}
		out = append(out, s+".")
	}
	var sig []string
	for _, p := range t.Pairs {
		switch {
		case p.Significant && t.Reference != "":
			sig = append(sig, name(p.B)) // its effect size follows
		case p.Significant:
			sig = append(sig, pairEffect(p, name, true))
		}
	}
	switch {
	case len(sig) > 0:
		if t.Reference != "" {
			out = append(out, fmt.Sprintf("Significantly different from %s after Holm's correction (%d of %d): %s.", name(t.Reference), len(sig), t.Comparisons, strings.Join(sig, ", ")))
		} else {
			out = append(out, fmt.Sprintf("Significant after Holm's correction (%d of %d): %s.", len(sig), t.Comparisons, listShown(sig)))
		}
	case t.Comparisons > 0:
		out = append(out, fmt.Sprintf("No comparison is significant after Holm's correction (0 of %d).", t.Comparisons))
	}
	if t.AllPairsPower != nil {
		allSig := 0
		for _, p := range t.AllPairs {
			if p.Significant {
				allSig++
			}
		}
		s := fmt.Sprintf("Every pair, as a secondary family with its own Holm correction: %d of %d significant", allSig, t.AllPairsPower.Comparisons)
		if t.AllPairsPower.Powerless {
			s += fmt.Sprintf("; over %d comparisons Holm's first step needs p < %g/%d ≈ %s, below the smallest p of %s: no pair can be significant in that family at this number of datasets",
				t.AllPairsPower.Comparisons, Alpha, t.AllPairsPower.Comparisons, sig3(Alpha/float64(t.AllPairsPower.Comparisons)), sig3(t.AllPairsPower.MinP))
		}
		out = append(out, s+".")
	}
	if t.Decision.Significant && len(sig) == 0 && t.Comparisons > 0 {
		if t.PostHocPowerless {
			out = append(out, "So the omnibus test finds that the methods are not all alike while no pair can be named: with this many comparisons over so few datasets the evidence is only in the ranks taken together.")
		} else {
			out = append(out, "So the omnibus test finds that the methods are not all alike while no single pair is significant: the evidence is spread over several pairs, none strong enough alone after Holm's correction.")
		}
	}
	if t.Reference != "" {
		var eff []string
		for _, p := range t.Pairs {
			eff = append(eff, pairEffect(p, name, false))
		}
		ties := "same mean accuracy within 10⁻⁹"
		if len(t.Pairs) > 0 && t.Pairs[0].TieExact {
			ties = "same mean accuracy from the correct counts"
		}
		out = append(out, fmt.Sprintf("Effect sizes, %s minus each method over the datasets: mean difference with its 95 %% t interval, and wins/ties/losses of %s (a tie: the %s): %s.",
			name(t.Reference), name(t.Reference), ties, strings.Join(eff, "; ")))
	}
	return out
}

// pairEffect writes one comparison's effect: its mean difference with
// its interval, its wins, ties and losses, and (withP) its Holm p-value.
func pairEffect(p Pair, name func(string) string, both bool) string {
	who := name(p.B)
	if both {
		who = name(p.A) + " vs " + name(p.B)
	}
	s := fmt.Sprintf("%s %s pp", who, signed2(p.MeanDiff))
	if !math.IsNaN(p.DiffCI[0]) {
		s += fmt.Sprintf(" [%s, %s]", signed2(p.DiffCI[0]), signed2(p.DiffCI[1]))
	}
	s += fmt.Sprintf(", %d/%d/%d", p.Wins, p.Ties, p.Losses)
	if !p.NA {
		s += ", Holm " + PText(p.PHolm)
	}
	return s
}

// smallStudySentences headline the fold-level tests of a study of one or
// two datasets: ranks over so few datasets are not evidence, each
// dataset's folds are.
func smallStudySentences(t Tests, name func(string) string, rope float64) []string {
	n := len(t.Datasets)
	out := []string{fmt.Sprintf("With %s, ranks over datasets are not evidence (no test over datasets can be trusted on so few); the headline is the comparison on each dataset over its cross-validation folds: the correlated Bayesian t-test (ROPE ± %s pp; decided when one side's posterior exceeds %g) and the Nadeau–Bengio corrected t-test, both allowing for the folds' overlap.",
		nouns(n, "dataset"), strconv.FormatFloat(rope*100, 'g', 3, 64), DecisiveProbability)}
	var decided, undecided []string
	total := 0
	for _, p := range t.Pairs {
		for _, f := range p.Folds {
			total++
			if f.Correlated.NA {
				undecided = append(undecided, fmt.Sprintf("%s vs %s on %s (n/a: fewer than two folds or no variation)", name(p.A), name(p.B), f.Dataset))
				continue
			}
			s := fmt.Sprintf("%s vs %s on %s: %s pp over %d folds, P(A>B) = %s, P(=) = %s, P(B>A) = %s, Nadeau–Bengio %s",
				name(p.A), name(p.B), f.Dataset, signed2(f.MeanDiff), f.N, fixed3(f.Correlated.PRight), fixed3(f.Correlated.PRope), fixed3(f.Correlated.PLeft), PText(f.NadeauBengio.P))
			if f.Decisive {
				decided = append(decided, s)
			} else {
				undecided = append(undecided, s)
			}
		}
	}
	if len(decided) > 0 {
		out = append(out, fmt.Sprintf("Decided (%d of %d dataset-level comparisons): %s.", len(decided), total, listShown(decided)))
	} else {
		out = append(out, fmt.Sprintf("None of the %d dataset-level comparisons is decided.", total))
	}
	if len(undecided) > 0 && len(undecided) <= summaryShown {
		out = append(out, "Undecided: "+strings.Join(undecided, "; ")+".")
	} else if len(undecided) > 0 {
		out = append(out, fmt.Sprintf("The other %d are undecided (the per-dataset table lists them).", len(undecided)))
	}
	return out
}

// listShown joins the first summaryShown items and counts the rest.
func listShown(items []string) string {
	if len(items) <= summaryShown {
		return strings.Join(items, "; ")
	}
	return strings.Join(items[:summaryShown], "; ") + fmt.Sprintf("; and %d more (see the pairwise table)", len(items)-summaryShown)
}

// minPText writes the smallest attainable p at n datasets, with the exact
// test's 2/2ⁿ beside it where the tied normal approximation is lower.
func minPText(n int, p float64) string {
	exact := math.Ldexp(1, 1-n)
	if n <= 50 && p < exact {
		return fmt.Sprintf("%s (%d differences of one sign and one size; 2/%s ≈ %s when their sizes differ)", sig3(p), n, strconv.FormatFloat(math.Ldexp(1, n), 'f', 0, 64), sig3(exact))
	}
	if n <= 50 {
		return fmt.Sprintf("2/%s ≈ %s (every difference of one sign)", strconv.FormatFloat(math.Ldexp(1, n), 'f', 0, 64), sig3(p))
	}
	return sig3(p)
}

func sig3(v float64) string   { return strconv.FormatFloat(v, 'g', 3, 64) }
func fixed2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
func fixed3(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
func signed2(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if s == "-0.00" {
		s = "0.00"
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}
