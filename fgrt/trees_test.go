package fgrt

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/fgrtbench/fgrtbench/fgrt/partopt"
	"github.com/fgrtbench/fgrtbench/fuzzy"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// printedNode is one node line of the reference's print_tree.
type printedNode struct {
	name, class, coverage, gain string
}

var (
	reHeader = regexp.MustCompile(`^### (\S+) fold (\d+)$`)
	reRoot   = regexp.MustCompile(`Root: class=(-?\d+), coverage=([\d.]+)`)
	reNode   = regexp.MustCompile(`(root(?:_F\d+_L\d+)+): .* class=(-?\d+), coverage=([\d.]+)(?:, split_criterion=(-?[\d.]+))?`)
)

func readPrintedTrees(t *testing.T) map[string][]printedNode {
	t.Helper()
	f, err := os.Open(sharedtest.Require(t, "reference/golden/wine_trees_R15.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	trees := map[string][]printedNode{}
	key := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := reHeader.FindStringSubmatch(line); m != nil {
			key = m[1] + "/" + m[2]
			continue
		}
		if m := reRoot.FindStringSubmatch(line); m != nil {
			trees[key] = append(trees[key], printedNode{"root", m[1], m[2], ""})
			continue
		}
		if m := reNode.FindStringSubmatch(line); m != nil {
			trees[key] = append(trees[key], printedNode{m[1], m[2], m[3], m[4]})
		}
	}
	return trees
}

// printed renders our model's nodes in pre-order with the reference's names.
func printed(m *Model) []printedNode {
	var out []printedNode
	var walk func(i int, name string)
	walk = func(i int, name string) {
		n := m.Nodes[i]
		gain := ""
		if i > 0 {
			gain = fmt.Sprintf("%.3f", n.Gain)
		}
		out = append(out, printedNode{name, fmt.Sprint(n.Class), fmt.Sprintf("%.3f", n.Coverage), gain})
		for _, c := range n.Children {
			walk(c, fmt.Sprintf("%s_F%d_L%d", name, m.Nodes[c].Feature, m.Nodes[c].Term))
		}
	}
	walk(0, "root")
	return out
}

// TestGoldenWineTreesR15 compares the R15 trees of every fold with the
// reference's print_tree: same nodes (feature, term paths) in the same
// pre-order with children in creation order, same stored classes and the
// printed (3-decimal) coverages and creation gains (split_criterion).
func TestGoldenWineTreesR15(t *testing.T) {
	g := readGoldenCSV(t, "reference/golden/wine_data.csv")
	want := readPrintedTrees(t)
	X, y, fold := g.matrix()
	def, err := fuzzy.FitPartitions(X, make([]bool, len(X[0])), fuzzy.QuantileStyle)
	if err != nil {
		t.Fatal(err)
	}
	opt, _, err := partopt.Optimize(X, y, def, partopt.Config{})
	if err != nil {
		t.Fatal(err)
	}
	nodes, gains := 0, 0
	for _, setting := range []struct {
		name  string
		parts []fuzzy.Partition
	}{{"default_R15_cov0.01_imp0.01", def}, {"optgrid_R15_cov0.01_imp0.01", opt}} {
		for k := 0; k < 5; k++ {
			key := fmt.Sprintf("%s/%d", setting.name, k)
			w := want[key]
			if len(w) == 0 {
				t.Fatalf("no printed tree for %s", key)
			}
			Xtr, ytr, _, _, _ := splitFold(X, y, fold, k)
			m, err := FitTree(Xtr, ytr, 3, setting.parts, GrowConfig{MaxRules: 15, CoverageThreshold: 0.01, MinImprovement: 0.01, Patience: 3})
			if err != nil {
				t.Fatal(err)
			}
			got := printed(m)
			if len(got) != len(w) {
				t.Errorf("%s: %d nodes, want %d", key, len(got), len(w))
				continue
			}
			for i := range w {
				nodes++
				if got[i].name != w[i].name || got[i].class != w[i].class || got[i].coverage != w[i].coverage {
					t.Errorf("%s node %d: got %+v want %+v", key, i, got[i], w[i])
				}
				if w[i].gain != "" {
					gains++
					if got[i].gain != w[i].gain {
						t.Errorf("%s node %s: creation gain %s, printed split_criterion %s", key, w[i].name, got[i].gain, w[i].gain)
					}
				}
			}
		}
	}
	t.Logf("%d printed nodes compared (%d with split_criterion)", nodes, gains)
}
