package sidebyside

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildTime(t *testing.T) {
	out := []byte("J48 pruned tree\n...\nTime taken to build model: 0.46 seconds\nTime taken to test model on training data: 0.01 seconds\n")
	if got, err := buildTime(out); err != nil || got != 0.46 {
		t.Errorf("buildTime = %v, %v; want 0.46", got, err)
	}
	if _, err := buildTime([]byte("Exception in thread main\n")); err == nil {
		t.Error("output without a build time accepted")
	}
}

func TestMarkdownAndReadmeBlock(t *testing.T) {
	m := Machine{CPU: "Test CPU", Cores: 2, MemGiB: 8, Go: "go1.x", Sklearn: "scikit-learn 1.2.1", Load0: "0.1 / 0.1 / 0.1", Load1: "0.2 / 0.1 / 0.1"}
	rs := []Result{
		{Task: "CART fit (gini)", Rows: 8000, Ours: 0.02, Ref: 0.2, RefName: "scikit-learn", Alloc: 1_280_000, Matrix: 640_000},
		{Task: "entropy tree fit (x)", Rows: 8000, Ours: 0.03, Ref: 0.3, RefName: "scikit-learn", Note: "trees differ: 3 nodes, scikit-learn 5"},
		{Task: "FGRT fit", Rows: 800000, Ours: 0.45, Ref: math.NaN()},
	}
	md := Markdown(m, rs, []WholeRun{{What: "`./run.sh`", Wall: 41.4, CPU: 63.2}, {What: "`fgrtbench run --spec s.yaml -j 2`", Wall: 9.2, CPU: 8.6}})
	for _, want := range []string{
		"on Test CPU, 2 cores", "| CART fit (gini) | 8,000 | 20 ms | 1.3 MB (2.00×) | scikit-learn | 200 ms | 10.0× |",
		"10.0× (trees differ: 3 nodes, scikit-learn 5)", "| FGRT fit | 800,000 | 450 ms | — | — | — | — |",
		"fgrtbench: 1.50×; scikit-learn: 1.50×", "`./run.sh` took 41 s wall and 63 s CPU",
		"`fgrtbench run --spec s.yaml -j 2` took 9 s wall and 9 s CPU",
		"the runtime study's settings, one core for our fits; fastest",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	// Fits timed on several threads say so, never as one core's.
	m.Threads = 4
	if md := Markdown(m, rs, nil); !strings.Contains(md, "settings, a budget of 4 threads for each of our fits (`speed -j 4`); fastest") || strings.Contains(md, "one core") {
		t.Errorf("Markdown at -j 4:\n%s", md)
	}
	path := filepath.Join(t.TempDir(), "README.md")
	os.WriteFile(path, []byte("# x\nbefore\n"+BeginMarker+"\nold\n"+EndMarker+"\nafter\n"), 0o644)
	if err := UpdateFile(path, "new block\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "# x\nbefore\n" + BeginMarker + "\nnew block\n" + EndMarker + "\nafter\n"; string(b) != want {
		t.Errorf("README after update:\n%s\nwant:\n%s", b, want)
	}
	os.WriteFile(path, []byte("no markers\n"), 0o644)
	if err := UpdateFile(path, "x"); err == nil {
		t.Error("a file without the markers was rewritten")
	}
}

func TestARFFRoundTripsValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.arff")
	if err := writeARFF(path, [][]float64{{0.1, -2.5e-7}, {3, 4}}, []int{2, 0}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := "@relation runtime\n@attribute x0 numeric\n@attribute x1 numeric\n@attribute class {0,1,2}\n@data\n0.1,-2.5e-07,2\n3,4,0\n"
	if string(b) != want {
		t.Errorf("ARFF:\n%s\nwant:\n%s", b, want)
	}
}
