package fga

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// goldenFile holds reference outputs of ex-fuzzy at the paper-era commit
// c0ffdcf (slow path, evolved memberships, nRules 15, nAnts 3, 3 labels,
// tolerance 0.01), or of _evaluate_slow at 96f0cf2 (whose trapezoid moves A
// left for a vertical left shoulder), on a small synthetic data set made for
// this test (90 rows, 3 classes: a class-shifted normal column, a binary
// column, integers with ties, a skewed column; 60 random chromosomes within
// the problem's bounds, a third of them with fewer don't-cares). The outputs
// were recorded once by running the reference; the driver script is not kept
// in the repository because it runs the reference's code. For each
// chromosome the fitness F = 1 - MCC of FitRuleBase._evaluate, and the
// winner-rule predictions and dominance scores of the rule base after the
// purge that fit() applies to the returned chromosome.
type goldenFile struct {
	X     [][]float64  `json:"X"`
	Y     []int        `json:"y"`
	XTest [][]float64  `json:"X_test"`
	Cases []goldenCase `json:"cases"`
}

// goldenCase is one chromosome with ex-fuzzy's fitness, the predictions of
// its purged rule base on the training and test rows, and the rules'
// dominance scores.
type goldenCase struct {
	Genes     []int32    `json:"genes"`
	F         float64    `json:"F"`
	TrainPred []int      `json:"train_pred"`
	TestPred  []int      `json:"test_pred"`
	DS        []*float64 `json:"ds"` // null = NaN
}

// readGolden decodes a JSON file of testdata into v.
func readGolden(t *testing.T, file string, v any) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// checkCase compares FGA with ex-fuzzy on one chromosome: the fitness
// F = 1 - MCC, the winner-rule predictions of the purged rule base on the
// training rows X and the test rows XTest, and its dominance scores. It
// reports whether the fitness matched.
func checkCase(t *testing.T, p *problem, sc *scratch, k int, c goldenCase, X, XTest [][]float64) bool {
	t.Helper()
	if len(c.Genes) != p.lay.nVar {
		t.Fatalf("case %d: %d genes, layout has %d", k, len(c.Genes), p.lay.nVar)
	}
	rules := decodeRules(&p.lay, c.Genes)
	stats := make([]*ruleStats, len(rules))
	for r := range rules {
		stats[r] = &ruleStats{phi: make([]float64, p.n), classSum: make([]float64, p.nClasses)}
		computeRuleStats(p, c.Genes, &rules[r], stats[r], sc)
	}
	mcc := evaluate(p, rules, stats, sc, false).mcc
	if math.Abs((1-mcc)-c.F) > 1e-9 {
		t.Errorf("case %d: F = %v, ex-fuzzy %v", k, 1-mcc, c.F)
		return false
	}
	m := buildModel(p, gaResult{best: c.Genes, bestMCC: mcc})
	if got := m.Predict(X); !slices.Equal(got, c.TrainPred) {
		t.Errorf("case %d: training predictions differ:\n got %v\nwant %v", k, got, c.TrainPred)
	}
	if got := m.Predict(XTest); !slices.Equal(got, c.TestPred) {
		t.Errorf("case %d: test predictions differ:\n got %v\nwant %v", k, got, c.TestPred)
	}
	rl := m.RuleList()
	if len(rl) != len(c.DS) {
		t.Errorf("case %d: %d rules after the purge, ex-fuzzy %d", k, len(rl), len(c.DS))
		return true
	}
	for r := range rl {
		if c.DS[r] == nil {
			if !math.IsNaN(rl[r].DominanceScore) {
				t.Errorf("case %d rule %d: DS %v, ex-fuzzy NaN", k, r, rl[r].DominanceScore)
			}
			continue
		}
		if math.Abs(rl[r].DominanceScore-*c.DS[r]) > 1e-12 {
			t.Errorf("case %d rule %d: DS %v, ex-fuzzy %v", k, r, rl[r].DominanceScore, c.DS[r])
		}
	}
	return true
}

func TestGoldenExFuzzySlowPath(t *testing.T) {
	tests := []struct {
		file string
		head bool
	}{
		{"testdata/exfuzzy_slowpath.json", false},     // c0ffdcf, paper era
		{"testdata/exfuzzy_head_slowpath.json", true}, // 96f0cf2 _evaluate_slow, a -= eps
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) { checkGolden(t, tc.file, tc.head) })
	}
}

func checkGolden(t *testing.T, file string, head bool) {
	var g goldenFile
	readGolden(t, file, &g)
	s := learn.Schema{Classes: []string{"0", "1", "2"}}
	for range g.X[0] {
		s.Features = append(s.Features, learn.Feature{})
	}
	o := DefaultConfig()
	o.HeadTrapezoid = head
	p := newProblem(g.X, g.Y, 3, o, newSpreader(1, nil), nil)
	sc := newScratch(p)
	mismatch := 0
	for k, c := range g.Cases {
		if !checkCase(t, p, sc, k, c, g.X, g.XTest) {
			mismatch++
		}
	}
	t.Logf("%d chromosomes compared, %d fitness mismatches", len(g.Cases), mismatch)
}

// TestGoldenPymooOperators compares SBX and polynomial mutation, draw by
// draw, with pymoo 0.6.1.6's cross_sbx and mut_pm (outputs recorded once
// from pymoo with scripted uniform draws, the draws stored beside them). Go's math.Pow
// and numpy's pow may differ in the last bit, so values are compared to
// 1e-9 and the integer genes the GA keeps (truncation after SBX, round half
// to even after mutation) exactly.
func TestGoldenPymooOperators(t *testing.T) {
	raw, err := os.ReadFile("testdata/pymoo_operators.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		SBX []struct {
			X1, X2, Lo, Hi, Eta, U float64
			Exch                   bool
			C1, C2                 float64
		} `json:"sbx"`
		PM []struct {
			X, Lo, Hi, Eta, U, Y float64
		} `json:"pm"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.SBX) < 100 || len(g.PM) < 100 {
		t.Fatalf("only %d SBX and %d PM vectors", len(g.SBX), len(g.PM))
	}
	for k, v := range g.SBX {
		a, b := sbxPair(v.X1, v.X2, v.Lo, v.Hi, v.Eta, v.U, v.Exch)
		if math.Abs(a-v.C1) > 1e-9 || math.Abs(b-v.C2) > 1e-9 {
			t.Errorf("sbx %d %+v: got %v, %v", k, v, a, b)
		}
		if int32(a) != int32(v.C1) || int32(b) != int32(v.C2) {
			t.Errorf("sbx %d: truncated genes %d, %d, pymoo %d, %d", k, int32(a), int32(b), int32(v.C1), int32(v.C2))
		}
	}
	for k, v := range g.PM {
		y := pmValue(v.X, v.Lo, v.Hi, v.Eta, v.U)
		if math.Abs(y-v.Y) > 1e-9 || math.RoundToEven(y) != math.RoundToEven(v.Y) {
			t.Errorf("pm %d %+v: got %v", k, v, y)
		}
	}
}
