package layers

import (
	"fmt"
	"sort"
	"strings"
)

// Module is the module path the table's package names are relative to.
const Module = "github.com/fgrtbench/fgrtbench"

// A Layer is a set of packages and the layers they may import. A layer
// imports itself only when MayImport names it.
type Layer struct {
	Name string
	// Packages are module-relative paths; "dir/..." stands for dir and
	// every package under it. The most specific entry of the table places
	// a package.
	Packages  []string
	MayImport []string
}

// Table is fgrtbench's layering, from the wiring at the top to the
// foundations at the bottom.
var Table = []Layer{
	{"wiring", []string{"cmd/...", "bench/fidelity", "deploy", "examples/..."},
		[]string{"wiring", "tasks", "tools", "plots", "gate", "reports", "analysis", "report-parts", "runner", "storage", "study", "records", "protocol", "registry", "learners", "contracts", "foundations"}},
	// What each command does, as a library: one function per command that
	// the CLI calls after parsing its flags (run a study and gate it, try
	// an external method, print a study's rules, ...).
	{"tasks", []string{"tasks/..."}, []string{"tasks", "tools", "plots", "gate", "reports", "analysis", "report-parts", "runner", "storage", "study", "records", "protocol", "registry", "learners", "contracts", "foundations"}},
	// The training-time study fits learners through the registry.
	{"tools", []string{"timing/..."}, []string{"tools", "registry", "contracts", "foundations"}},
	// The views read the results contract only: no learner, registry or runner.
	{"plots", []string{"plots"}, []string{"analysis", "report-parts", "contracts", "foundations"}},
	{"gate", []string{"gate"}, []string{"contracts", "foundations"}},
	{"reports", []string{"reports", "reports/html"}, []string{"analysis", "report-parts", "contracts", "foundations"}},
	// One analysis of a study, computed once from results.csv and the
	// manifest, that every view renders: never a learner, the registry or
	// the runner.
	{"analysis", []string{"analysis"}, []string{"report-parts", "contracts", "foundations"}},
	// The statistics and the paper's published numbers.
	{"report-parts", []string{"stats", "paper"}, []string{"contracts", "foundations"}},
	{"runner", []string{"bench/runner"}, []string{"storage", "study", "records", "protocol", "registry", "contracts", "foundations"}},
	// The output directory of a study: dir checks, lock, appender, merge.
	{"storage", []string{"bench/outdir"}, []string{"study", "records", "contracts", "foundations"}},
	// What a study is: its declaration (spec), methods, units, seeds,
	// identity and shards.
	{"study", []string{"bench/study", "bench/spec"}, []string{"study", "records", "protocol", "registry", "contracts", "foundations"}},
	// What an output directory records besides results.csv: the manifest
	// and the identity of units and studies (hashes of what a result
	// depends on).
	{"records", []string{"bench/manifest", "bench/identity"}, []string{"records", "contracts", "foundations"}},
	{"protocol", []string{"bench/protocol", "bench/paperprep"}, []string{"protocol", "contracts", "foundations"}},
	// The registry and the external kind (which names its options in the
	// registry's terms and wraps fuzzy partitions of FGRT's kind).
	{"registry", []string{"bench/methods", "bench/external/..."}, []string{"registry", "learners", "contracts", "foundations"}},
	{"learners", []string{"fgrt/...", "baselines/..."}, []string{"learners", "contracts", "foundations"}},
	{"contracts", []string{"learn/...", "fuzzy", "results/...", "datasets"}, []string{"contracts", "foundations"}},
	{"foundations", []string{"internal/..."}, []string{"foundations"}},
}

// reaches says whether directory b can be reached from a along next.
func reaches(next map[string]map[string]bool, a, b string) bool {
	seen := map[string]bool{a: true}
	stack := []string{a}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for q := range next[p] {
			if q == b {
				return true
			}
			if !seen[q] {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return false
}

// Edge is one import: From imports To (module-relative paths).
type Edge struct{ From, To string }

// placement maps a package to its layer name ("" when the table does not
// place it).
func placement(table []Layer, pkg string) string {
	best, bestLen := "", -1
	for _, l := range table {
		for _, p := range l.Packages {
			n := -1
			if dir, ok := strings.CutSuffix(p, "/..."); ok {
				if pkg == dir || strings.HasPrefix(pkg, dir+"/") {
					n = len(dir)
				}
			} else if pkg == p {
				n = len(p) + 1 // an exact entry beats a pattern of the same directory
			}
			if n > bestLen {
				best, bestLen = l.Name, n
			}
		}
	}
	return best
}

// Check returns one message per violation of the table by the imports:
// a package the table does not place, or an import of a layer its layer
// may not import. Messages name the offending import and are sorted.
func Check(table []Layer, pkgs []string, edges []Edge) []string {
	allowed := map[string]map[string]bool{}
	for _, l := range table {
		allowed[l.Name] = map[string]bool{}
		for _, m := range l.MayImport {
			allowed[l.Name][m] = true
		}
	}
	var out []string
	for _, p := range pkgs {
		if placement(table, p) == "" {
			out = append(out, fmt.Sprintf("%s is in no layer: add it to the table in internal/layers", p))
		}
	}
	for _, e := range edges {
		lf, lt := placement(table, e.From), placement(table, e.To)
		if lf == "" || lt == "" {
			continue // reported above
		}
		if !allowed[lf][lt] {
			out = append(out, fmt.Sprintf("%s (layer %s) imports %s (layer %s); %s may import only: %s",
				e.From, lf, e.To, lt, lf, strings.Join(mayImport(table, lf), ", ")))
		}
	}
	sort.Strings(out)
	return out
}

func mayImport(table []Layer, name string) []string {
	for _, l := range table {
		if l.Name == name {
			return l.MayImport
		}
	}
	return nil
}

// Reaches returns the import chain from one package to the first package
// it reaches (directly or not) for which forbidden is true, or nil.
func Reaches(edges []Edge, from string, forbidden func(string) bool) []string {
	next := map[string][]string{}
	for _, e := range edges {
		next[e.From] = append(next[e.From], e.To)
	}
	for k := range next {
		sort.Strings(next[k])
	}
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range next[p] {
			if _, seen := prev[q]; seen {
				continue
			}
			prev[q] = p
			if forbidden(q) {
				chain := []string{q}
				for c := p; c != ""; c = prev[c] {
					chain = append([]string{c}, chain...)
				}
				return chain
			}
			queue = append(queue, q)
		}
	}
	return nil
}

// Directory is the directory a package is filed under for the cycle
// check: its first path element, or the first two under internal/ (whose
// packages are unrelated foundations and the CLI).
func Directory(pkg string) string {
	parts := strings.Split(pkg, "/")
	if parts[0] == "internal" && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// DirectoryCycles returns, sorted, every pair of distinct directories that
// import each other (directly or through other directories), as "a ↔ b
// (a → b: x imports y; b → a: ...)".
func DirectoryCycles(edges []Edge) []string {
	witness := map[[2]string]Edge{}
	next := map[string]map[string]bool{}
	for _, e := range edges {
		a, b := Directory(e.From), Directory(e.To)
		if a == b {
			continue
		}
		if next[a] == nil {
			next[a] = map[string]bool{}
		}
		next[a][b] = true
		if _, ok := witness[[2]string{a, b}]; !ok {
			witness[[2]string{a, b}] = e
		}
	}
	var dirs []string
	for d := range next {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	how := func(a, b string) string {
		if w, ok := witness[[2]string{a, b}]; ok {
			return w.From + " imports " + w.To
		}
		return a + " reaches " + b + " through other directories"
	}
	var out []string
	for i, a := range dirs {
		for _, b := range dirs[i+1:] {
			if reaches(next, a, b) && reaches(next, b, a) {
				out = append(out, fmt.Sprintf("%s ↔ %s (%s; %s)", a, b, how(a, b), how(b, a)))
			}
		}
	}
	sort.Strings(out)
	return out
}
