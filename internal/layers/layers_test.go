package layers

import (
	"os/exec"
	"strings"
	"testing"
)

// moduleImports lists the module's packages and their (non-test) imports
// of module packages, as `go list -deps` reports them.
func moduleImports(t *testing.T) (pkgs []string, edges []Edge) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not available: cannot list the imports")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	rel := func(p string) (string, bool) {
		if p == Module {
			return "", false
		}
		return strings.CutPrefix(p, Module+"/")
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from, ok := rel(f[0])
		if !ok {
			continue
		}
		pkgs = append(pkgs, from)
		for _, imp := range f[1:] {
			if to, ok := rel(imp); ok {
				edges = append(edges, Edge{from, to})
			}
		}
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of %s: run from the module", len(pkgs), Module)
	}
	return pkgs, edges
}

// TestImportsPointDown checks every import of the module against the
// layer table.
func TestImportsPointDown(t *testing.T) {
	pkgs, edges := moduleImports(t)
	for _, v := range Check(Table, pkgs, edges) {
		t.Error(v)
	}
	t.Logf("%d packages, %d imports between them, in %d layers", len(pkgs), len(edges), len(Table))
}

// TestNoDirectoryCycles: no two directories import each other (as bench
// and reports once did), even through a third.
func TestNoDirectoryCycles(t *testing.T) {
	_, edges := moduleImports(t)
	for _, c := range DirectoryCycles(edges) {
		t.Error("directories import each other: " + c)
	}
}

// TestViewsReachNoLearner: reports, plots and the gate depend on the
// results contract, the learner contract and fuzzy partitions; they reach
// no learner, the registry, the runner, the study model or the output
// directory, directly or not.
func TestViewsReachNoLearner(t *testing.T) {
	pkgs, edges := moduleImports(t)
	banned := map[string]bool{"learners": true, "registry": true, "runner": true, "study": true, "storage": true, "records": true,
		"protocol": true, "tools": true, "wiring": true}
	for _, p := range pkgs {
		switch placement(Table, p) {
		case "reports", "analysis", "report-parts", "plots", "gate":
		default:
			continue
		}
		if chain := Reaches(edges, p, func(q string) bool { return banned[placement(Table, q)] }); chain != nil {
			t.Errorf("%s reaches %s (layer %s): %s", p, chain[len(chain)-1], placement(Table, chain[len(chain)-1]), strings.Join(chain, " → "))
		}
	}
}

// TestChecker shows that the checks fail, naming the offending import, on
// made-up import lists.
func TestChecker(t *testing.T) {
	table := []Layer{
		{"top", []string{"cmd/..."}, []string{"views", "learners", "base"}},
		{"views", []string{"views/..."}, []string{"base"}},
		{"learners", []string{"learners/..."}, []string{"learners", "base"}},
		{"base", []string{"base", "base/special"}, []string{"base"}},
	}
	for _, tc := range []struct {
		name  string
		pkgs  []string
		edges []Edge
		want  []string // substrings of the violations, in order; none = clean
	}{
		{"clean", []string{"cmd/x", "views/a", "learners/l", "learners/m", "base"},
			[]Edge{{"cmd/x", "views/a"}, {"views/a", "base"}, {"learners/l", "learners/m"}, {"learners/m", "base"}}, nil},
		{"view imports a learner", []string{"views/a", "learners/l"},
			[]Edge{{"views/a", "learners/l"}},
			[]string{"views/a (layer views) imports learners/l (layer learners); views may import only: base"}},
		{"import upwards", []string{"base", "cmd/x"}, []Edge{{"base", "cmd/x"}},
			[]string{"base (layer base) imports cmd/x (layer top)"}},
		{"layer without itself", []string{"views/a", "views/b"}, []Edge{{"views/a", "views/b"}},
			[]string{"views/a (layer views) imports views/b (layer views)"}},
		{"unplaced package", []string{"stray/p", "base"}, []Edge{{"stray/p", "base"}},
			[]string{"stray/p is in no layer"}},
		{"exact entry beats pattern", []string{"base/special", "base/other"}, nil,
			[]string{"base/other is in no layer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(table, tc.pkgs, tc.edges)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations %q, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("violation %q does not say %q", got[i], w)
				}
			}
		})
	}
}

// TestCheckerCyclesAndReach: a mutual import of two directories is found
// through a third, and a view's path to a learner is spelled out.
func TestCheckerCyclesAndReach(t *testing.T) {
	edges := []Edge{{"reports/a", "bench/methods"}, {"bench/methods", "fgrt"}, {"bench/check", "reports/a"}, {"plots", "timing"}, {"timing", "bench/methods"}}
	cycles := DirectoryCycles(edges)
	if len(cycles) != 1 || !strings.HasPrefix(cycles[0], "bench ↔ reports (bench/check imports reports/a; reports/a imports bench/methods)") {
		t.Errorf("cycles %q, want bench ↔ reports", cycles)
	}
	if c := DirectoryCycles([]Edge{{"a/x", "b"}, {"b", "c"}, {"c", "a/y"}}); len(c) != 3 {
		t.Errorf("a three-directory loop: %q, want its 3 pairs", c)
	}
	if c := DirectoryCycles([]Edge{{"internal/cli", "bench/runner"}, {"bench/runner", "internal/atomicfile"}}); len(c) != 0 {
		t.Errorf("internal/cli and internal/atomicfile are different directories: %q", c)
	}
	chain := Reaches(edges, "plots", func(p string) bool { return p == "fgrt" })
	if got := strings.Join(chain, " → "); got != "plots → timing → bench/methods → fgrt" {
		t.Errorf("chain %q", got)
	}
	if Reaches(edges, "fgrt", func(p string) bool { return p == "plots" }) != nil {
		t.Error("fgrt does not reach plots")
	}
}
