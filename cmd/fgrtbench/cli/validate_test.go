package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/datasets"
)

// writeFile writes a test file into dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// twoClassCSV is a learnable two-class CSV file with n rows per class.
func twoClassCSV(n int) string {
	var b strings.Builder
	b.WriteString("x1,x2,class\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%d.5,a\n%d,%d.25,b\n", i, i%4, i+100, i%3)
	}
	return b.String()
}

// TestRefusedBeforeAnythingIsWritten runs the run and reproduce commands on
// studies that cannot run: each must exit 1 with a one-line message, and
// the output directory must not exist afterwards.
func TestRefusedBeforeAnythingIsWritten(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.csv", twoClassCSV(10))
	empty := writeFile(t, dir, "empty.csv", "")
	headerOnly := writeFile(t, dir, "header.csv", "x1,x2,class\n")
	oneClass := writeFile(t, dir, "one.csv", "x1,x2,class\n1,2,a\n3,4,a\n5,6,a\n7,8,a\n9,1,a\n2,2,a\n")
	fewRows := writeFile(t, dir, "few.csv", "x1,x2,class\n1,2,a\n3,4,a\n5,6,b\n7,8,b\n9,1,a\n2,2,b\n")
	stringAttr := writeFile(t, dir, "s.arff", "@relation r\n@attribute name string\n@attribute x numeric\n@attribute class {a,b}\n@data\n'u',1,a\n")
	badCell := writeFile(t, dir, "bad.csv", strings.Replace(twoClassCSV(10), "3,3.5,a", "3,abc,a", 1))
	infCell := writeFile(t, dir, "inf.csv", strings.Replace(twoClassCSV(10), "3,3.5,a", "inf,3.5,a", 1))
	spec := func(body string) string {
		return writeFile(t, t.TempDir(), "s.yaml", body)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"folds 0", []string{"run", "--spec", spec("datasets: [" + good + "]\nfolds: 0\nmethods: [{name: cart}]\n")}, "folds must be at least 2, got 0"},
		{"inner folds 0", []string{"run", "--spec", spec("datasets: [" + good + "]\ninner_folds: 0\nmethods: [{name: cart}]\n")}, "inner folds must be at least 2"},
		{"repeats 0", []string{"run", "--spec", spec("datasets: [" + good + "]\nrepeats: 0\nmethods: [{name: cart}]\n")}, "repeats must be at least 1"},
		{"folds null", []string{"run", "--spec", spec("datasets: [" + good + "]\nfolds:\nmethods: [{name: cart}]\n")}, "folds is given but empty"},
		{"datasets []", []string{"run", "--spec", spec("datasets: []\nmethods: [{name: cart}]\n")}, "datasets is empty"},
		{"methods []", []string{"run", "--spec", spec("datasets: [" + good + "]\nmethods: []\n")}, "methods is given but empty"},
		{"folds under paper only", []string{"run", "--spec", spec("protocols: [paper]\ndatasets: [" + good + "]\nfolds: 3\nmethods: [{name: cart}]\n")}, "used by none of the study's protocols"},
		{"empty sweep list", []string{"run", "--spec", spec("datasets: [" + good + "]\nmethods: [{name: fgrt, sweep: {max_rules: []}}]\n")}, "lists no values"},
		{"bool sweep in two spellings", []string{"run", "--spec", spec("datasets: [" + good + "]\nmethods: [{name: fgrt, sweep: {fix_q1: [\"true\", \"True\", \"1\"]}}]\n")}, `sweep of fix_q1 lists one value twice ("true" and "True")`},
		{"-0.0 and 0 in one sweep", []string{"run", "--spec", spec("datasets: [" + good + "]\nmethods: [{name: cart, sweep: {ccp_alpha: [\"-0.0\", \"0\"]}}]\n")}, `sweep of ccp_alpha lists one value twice ("-0.0" and "0")`},
		{"grid made one configuration by params", []string{"run", "--spec", spec("datasets: [" + good + "]\nmethods: [{name: c45-entropy, grid: text, params: {max_depth: 3}}]\n")}, "configurations 1 and 2 are one configuration"},
		// Out-of-range numbers (-j 0, --repeats 0) are usage errors, exit
		// 2: TestNumericFlagsOutOfRange.
		{"--reference not a label", []string{"reproduce", "--datasets", good, "--methods", "cart,c45", "--no-variants", "--reference", "fgrt"}, `--reference: "fgrt" is not a method label of the study (labels: cart, c45)`},
		{"spec reference not a label", []string{"run", "--spec", spec("datasets: [" + good + "]\nreference: c45\nmethods: [{name: cart}]\n")}, `reference: "c45" is not a method label of the study (labels: cart)`},
		{"--datasets empty", []string{"reproduce", "--datasets=", "--methods", "cart"}, "--datasets is empty"},
		{"--methods empty", []string{"reproduce", "--datasets", good, "--methods", ","}, "--methods is empty"},
		{"runtime --methods empty", []string{"runtime", "--methods="}, "--methods is empty"},
		{"--repeats under paper", []string{"reproduce", "--protocol", "paper", "--datasets", good, "--methods", "cart", "--repeats", "3"}, "--repeats is used by none of the study's protocols (paper)"},
		{"--seed under paper", []string{"reproduce", "--protocol", "paper", "--datasets", good, "--methods", "cart", "--seed", "7"}, "--seed is used by none of the study's protocols (paper)"},
		{"--seed under holdout", []string{"reproduce", "--protocol", "holdout", "--datasets", good, "--methods", "cart", "--seed", "7"}, "--seed is used by none of the study's protocols (holdout): it is an option of the clean protocol"},
		{"empty file", []string{"reproduce", "--datasets", empty, "--methods", "cart"}, "empty file"},
		{"header only", []string{"reproduce", "--datasets", headerOnly, "--methods", "cart"}, "no data rows"},
		{"one class", []string{"reproduce", "--datasets", good + "," + oneClass, "--methods", "cart"}, "single class"},
		{"too few rows per class", []string{"reproduce", "--datasets", fewRows, "--methods", "cart"}, "needs a class with at least 5 complete rows; the largest has 3"},
		{"bad cell", []string{"reproduce", "--datasets", badCell, "--methods", "cart"}, `bad.csv:8: column 2 (x2): "abc" is not a number`},
		{"infinite cell", []string{"reproduce", "--datasets", infCell, "--methods", "cart"}, `inf.csv:8: column 1 (x1): "inf" is infinite`},
		{"string ARFF attribute", []string{"reproduce", "--datasets", stringAttr, "--methods", "cart"}, "type string is not supported"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runCLI(append(c.args, "--out", out)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (stderr %q)", code, stderr)
			}
			if !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("want one line containing %q, got %q", c.want, stderr)
			}
			if stdout != "" {
				t.Fatalf("stdout: %q", stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("output directory exists after a refused run (%v)", err)
			}
		})
	}
}

// TestDatasetsCommandReadsFiles: `fgrtbench datasets FILE` prints the
// table row of a data file with the identity of its table, the one a
// manifest records.
func TestDatasetsCommandReadsFiles(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "mine.csv", "x1,colour,class\n1,red,a\n2,?,b\n3,blue,a\n")
	code, stdout, stderr := runCLI("datasets", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("want a header and one row, got %q", stdout)
	}
	// name, instances 3, features 2, nominal 1, classes 2, missing rows 1, cells 1.
	fields := strings.Fields(lines[1])
	if fields[0] != path || strings.Join(fields[1:7], " ") != "3 2 1 2 1 1" {
		t.Fatalf("row %q", lines[1])
	}
	ds, err := datasets.LoadFile(path, datasets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if id := datasets.Identity(ds); !strings.HasPrefix(id, "content:") || !strings.Contains(lines[1], "identity "+id) {
		t.Fatalf("row lacks the identity %s: %q", id, lines[1])
	}
	code, _, stderr = runCLI("datasets", filepath.Join(dir, "absent.csv"))
	if code != 1 || !strings.Contains(stderr, "absent.csv") {
		t.Fatalf("absent file: %d %q", code, stderr)
	}
}
