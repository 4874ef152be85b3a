package stats_test

import (
	"fmt"

	"github.com/fgrtbench/fgrtbench/stats"
)

// Example shows the statistics of one study as a report computes them:
// datasets × methods accuracies, Friedman with Iman–Davenport, the Nemenyi
// CD, and every method against a reference (column 0), printing "n/a" for
// comparisons that are not applicable.
func Example() {
	methods := []string{"mine", "cart", "j48", "copy"}
	acc := [][]float64{
		{0.91, 0.85, 0.86, 0.91},
		{0.80, 0.79, 0.77, 0.80},
		{0.72, 0.66, 0.70, 0.72},
		{0.95, 0.92, 0.90, 0.95},
		{0.88, 0.81, 0.84, 0.88},
	}
	fr, _ := stats.Friedman(acc, true)
	cd, _ := stats.CriticalDifference(0.05, len(methods), len(acc))
	fmt.Printf("Iman-Davenport F(%d,%d) = %.3f, p = %.4f; CD = %.3f\n", fr.DF1, fr.DF2, fr.ImanDavenport, fr.PImanDavenport, cd)
	pairs, _ := stats.Pairwise(acc, len(methods), 0, stats.DefaultSignedRankOptions())
	for _, p := range pairs {
		if p.NA {
			fmt.Printf("%s vs %s: n/a\n", methods[p.A], methods[p.B])
			continue
		}
		fmt.Printf("%s vs %s: p = %.4f, Holm %.4f, P(%s better) = %.3f\n", methods[p.A], methods[p.B], p.P, p.PHolm, methods[p.A], p.Bayes.PRight)
	}
	// F, p and CD agree with scipy (f.sf, studentized_range.ppf). The two
	// Wilcoxon p-values use the normal approximation because differences
	// such as 0.91−0.85 and 0.72−0.66 are tied within TieTolerance (scipy,
	// comparing the floats exactly, sees no tie and gives 0.0591).
	// Output:
	// Iman-Davenport F(3,12) = 16.408, p = 0.0002; CD = 2.098
	// mine vs cart: p = 0.0579, Holm 0.1158, P(mine better) = 0.997
	// mine vs j48: p = 0.0579, Holm 0.1158, P(mine better) = 1.000
	// mine vs copy: n/a
}

// ExampleCorrelatedBayesTTest compares two methods on one dataset from the
// per-fold accuracy differences of 2 × 5-fold cross-validation.
func ExampleCorrelatedBayesTTest() {
	d := []float64{0.02, 0.01, 0.03, -0.01, 0.02, 0.04, 0.00, 0.02, 0.01, 0.03}
	b, _ := stats.CorrelatedBayesTTest(d, stats.KFoldRho(5), stats.DefaultRope)
	nb, _ := stats.NadeauBengio(d, stats.KFoldRho(5))
	fmt.Printf("P(left) %.3f, P(rope) %.3f, P(right) %.3f\n", b.PLeft, b.PRope, b.PRight)
	fmt.Printf("Nadeau-Bengio t(%d) = %.3f, p = %.4f\n", nb.DF, nb.T, nb.P)
	// scipy.stats.t gives the same posterior tails (0.00685, 0.77556) and
	// two-sided p (0.08666).
	// Output:
	// P(left) 0.007, P(rope) 0.218, P(right) 0.776
	// Nadeau-Bengio t(9) = 1.923, p = 0.0867
}
