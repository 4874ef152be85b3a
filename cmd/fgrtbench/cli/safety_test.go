//go:build unix

package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/study"
)

// treeHash hashes every name, kind, link target and file content under
// root except the subtree out (the output directory a command may write):
// a refused command must leave everything else as it was.
func treeHash(t *testing.T, root, out string) string {
	t.Helper()
	return hashLines(treeLines(t, root, out))
}

// hashLines is the SHA-256 of a tree's sorted lines.
func hashLines(lines []string) string {
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// treeLines lists every entry under root but the subtree out, sorted: its
// path, mode, and a link's target or a file's SHA-256.
func treeLines(t *testing.T, root, out string) []string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == out {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := rel + " " + st.Mode().String()
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case st.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return lines
}

// refused runs the command and asserts exit status 1 (or want), a one-line
// message holding each of msgs, no hang, and that nothing under root but
// the subtree out changed.
func refused(t *testing.T, root, out string, msgs []string, args ...string) {
	t.Helper()
	before := treeHash(t, root, out)
	var code int
	var errOut string
	ch := make(chan struct{})
	go func() { code, _, errOut = runCLI(args...); close(ch) }()
	select {
	case <-ch:
	case <-time.After(60 * time.Second):
		t.Fatalf("%v hung", args)
	}
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("%v: exit %d, want 1 with one line; stderr %q", args, code, errOut)
	}
	for _, m := range msgs {
		if !strings.Contains(errOut, m) {
			t.Errorf("%v: stderr %q does not say %q", args, errOut, m)
		}
	}
	if after := treeHash(t, root, out); after != before {
		t.Errorf("%v changed files outside its output directory", args)
	}
}

// TestNoWriteThroughPlantedLinks is class 2 of the shared-storage issue: a
// link, FIFO or directory planted in an output directory where fgrtbench
// writes a file (the run lock, results.csv) is refused in one line, and
// the file it points at is untouched.
func TestNoWriteThroughPlantedLinks(t *testing.T) {
	link := func(p, victim string) error { return os.Symlink(victim, p) }
	for _, c := range []struct {
		name, file string
		plant      func(path, victim string) error
		msg        string
	}{
		{"lock link", ".fgrtbench.lock", link, "symbolic link"},
		{"results link", "results.csv", link, "symbolic link"},
		{"manifest link", "manifest.json", link, "symbolic link"},
		{"lock fifo", ".fgrtbench.lock", func(p, _ string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe"},
		{"results fifo", "results.csv", func(p, _ string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe"},
		{"results dir", "results.csv", func(p, _ string) error { return os.Mkdir(p, 0o755) }, "directory"},
		{"predictions link", "predictions.csv.gz", link, "symbolic link"},
		{"models link", "models.jsonl.gz", link, "symbolic link"},
		{"predictions fifo", "predictions.csv.gz", func(p, _ string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			data, spec, out := filepath.Join(tmp, "d.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "X")
			writeData(t, data, 0)
			writeSpec(t, spec, data, 3)
			victim := filepath.Join(tmp, "victim.txt")
			if err := os.WriteFile(victim, []byte("another user's file\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(filepath.Join(out, c.file), victim); err != nil {
				t.Fatal(err)
			}
			refused(t, tmp, out, []string{filepath.Join(out, c.file), c.msg}, "run", "--spec", spec, "--out", out)
		})
	}
}

// TestNothingDeletedThatFgrtbenchDidNotWrite is class 1: a report render
// keeps a user's files in OUT/report and refuses a report/ link; merge
// refuses to replace a file that is not a results file, results without
// their manifest, and a directory another run holds.
func TestNothingDeletedThatFgrtbenchDidNotWrite(t *testing.T) {
	tmp, _, spec := studyFixture(t)
	out := filepath.Join(tmp, "whole")
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "-j", "1"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	chapter := filepath.Join(out, "report", "chapter3.md")
	if err := os.WriteFile(chapter, []byte("my thesis\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("report", "--results", out); code != 0 {
		t.Fatalf("report: %s", e)
	}
	if b, err := os.ReadFile(chapter); err != nil || string(b) != "my thesis\n" {
		t.Fatalf("a render removed or changed the user's chapter3.md: %q %v", b, err)
	}

	// report/ as a link to another directory: refused, nothing written there.
	elsewhere := filepath.Join(tmp, "elsewhere")
	os.Mkdir(elsewhere, 0o755)
	os.WriteFile(filepath.Join(elsewhere, "table1.md"), []byte("mine\n"), 0o644)
	linked := filepath.Join(tmp, "linked")
	if code, _, e := runCLI("run", "--spec", spec, "--out", linked, "-j", "1", "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	os.RemoveAll(filepath.Join(linked, "report"))
	if err := os.Symlink(elsewhere, filepath.Join(linked, "report")); err != nil {
		t.Fatal(err)
	}
	refused(t, tmp, linked, []string{"symbolic link"}, "report", "--results", linked)
	refused(t, tmp, linked, []string{"symbolic link"}, "plot", "all", "--results", linked)

	shards := runShards(t, spec, tmp, 3)
	// merge --out onto a file that is not a results file.
	notes := filepath.Join(tmp, "notes", "results.csv")
	os.MkdirAll(filepath.Dir(notes), 0o755)
	os.WriteFile(notes, []byte("my notes, not results\n"), 0o644)
	refused(t, tmp, "", []string{notes, "not a results file"}, append([]string{"merge", "--out", notes}, shards...)...)
	// A results.csv without a manifest: whose it is is unknown.
	foreign := filepath.Join(tmp, "foreign")
	os.Mkdir(foreign, 0o755)
	b, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	os.WriteFile(filepath.Join(foreign, "results.csv"), b, 0o644)
	refused(t, tmp, "", []string{"without a manifest.json"}, append([]string{"merge", "--out", foreign}, shards...)...)

	// merge takes the run lock of the directory it writes into.
	lock, err := os.OpenFile(filepath.Join(out, ".fgrtbench.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Skipf("no file locks here: %v", err)
	}
	refused(t, tmp, "", []string{"is being written by"}, append([]string{"merge", "--out", out}, shards...)...)
}

// TestOutsideReadsAreBounded is class 4: a spec, data file or merge input
// that is a FIFO or a device (directly or through a link) is refused in one
// line, promptly, before anything is written; an oversized spec too.
func TestOutsideReadsAreBounded(t *testing.T) {
	tmp := t.TempDir()
	data, spec, out := filepath.Join(tmp, "d.csv"), filepath.Join(tmp, "s.yaml"), filepath.Join(tmp, "X")
	writeData(t, data, 0)
	writeSpec(t, spec, data, 3)
	fifo := filepath.Join(tmp, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(tmp, "zero.yaml")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(tmp, "big.yaml")
	os.WriteFile(big, []byte("# "+strings.Repeat("x", 5<<20)+"\n"), 0o644)
	for _, c := range []struct{ spec, want string }{{fifo, "named pipe"}, {zero, "device"}, {big, "larger than"}} {
		refused(t, tmp, out, []string{c.spec, c.want}, "run", "--spec", c.spec, "--out", out)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("a refused spec %s created %s", c.spec, out)
		}
	}
	// A data file that is a FIFO.
	fifoData := filepath.Join(tmp, "fifo.csv")
	if err := syscall.Mkfifo(fifoData, 0o644); err != nil {
		t.Fatal(err)
	}
	spec2 := filepath.Join(tmp, "s2.yaml")
	writeSpec(t, spec2, fifoData, 3)
	refused(t, tmp, out, []string{fifoData, "named pipe"}, "run", "--spec", spec2, "--out", out)

	// A merge input whose results.csv is a link to /dev/zero.
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	os.Remove(filepath.Join(out, "results.csv"))
	os.Symlink("/dev/zero", filepath.Join(out, "results.csv"))
	merged := filepath.Join(tmp, "merged")
	refused(t, tmp, merged, []string{"device"}, "merge", "--out", merged, out)
}

// onlyInside asserts that fn leaves everything under root but out as it
// was and returns what it wrote under out.
func onlyInside(t *testing.T, root, out string, fn func()) []string {
	t.Helper()
	before := treeHash(t, root, out)
	fn()
	if treeHash(t, root, out) != before {
		t.Fatal("files outside the output directory changed")
	}
	var files []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files = append(files, rel)
		}
		return nil
	})
	return files
}

// TestNamesFromDataNeverDecidePaths is class 3: a dataset path with ../
// or an absolute path, and a column header with ../ and a separator, name
// files inside --out only; two labels one report file name would hold are
// refused before anything runs.
func TestNamesFromDataNeverDecidePaths(t *testing.T) {
	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	os.MkdirAll(filepath.Join(tmp, "a"), 0o755)
	os.MkdirAll(work, 0o755)
	data := filepath.Join(tmp, "a", "x.csv")
	writeData(t, data, 0)
	t.Chdir(work)
	for _, ds := range []string{"../a/x.csv", data} {
		out := filepath.Join(work, "f")
		os.RemoveAll(out)
		files := onlyInside(t, tmp, out, func() {
			if code, _, e := runCLI("folds", "--dataset", ds, "--protocol", "clean", "--folds", "3", "--out", "f"); code != 0 {
				t.Fatalf("folds --dataset %s: %s", ds, e)
			}
		})
		// The six folds' files, the fold CSV and the marker listing them.
		if len(files) != 8 || !slicesContains(files, "x-clean-folds.csv") || !slicesContains(files, ".fgrtbench-files") {
			t.Errorf("folds --dataset %s wrote %v", ds, files)
		}
	}

	// A header names a column "../../evil/x"; its partitions figure
	// still lands in --out, under a reduced name.
	hostile := filepath.Join(tmp, "a", "h.csv")
	var b strings.Builder
	b.WriteString("../../evil/x,x2,class\n")
	for i := 0; i < 40; i++ {
		b.WriteString(strings.Join([]string{itoa(i % 7), itoa(i % 5), []string{"a", "b"}[i%2]}, ",") + "\n")
	}
	os.WriteFile(hostile, []byte(b.String()), 0o644)
	out := filepath.Join(work, "figs")
	files := onlyInside(t, tmp, out, func() {
		if code, _, e := runCLI("plot", "partitions", "--dataset", hostile, "--feature", "../../evil/x", "--protocol", "raw", "--out", out); code != 0 {
			t.Fatalf("plot partitions: %s", e)
		}
	})
	if strings.Join(files, " ") != ".fgrtbench-files partitions_h_.._.._evil_x.png partitions_h_.._.._evil_x.svg" {
		t.Errorf("plot partitions wrote %v", files)
	}

	// Two labels, one file name: refused before anything is written.
	spec := filepath.Join(tmp, "labels.yaml")
	os.WriteFile(spec, []byte("protocols: [clean]\ndatasets: ["+data+"]\nfolds: 3\ninner_folds: 2\nmethods:\n  - name: cart\n    label: my cart\n  - name: cart\n    label: my_cart\n    params: {max_depth: 3}\n"), 0o644)
	runOut := filepath.Join(tmp, "R")
	refused(t, tmp, runOut, []string{`"my cart" and "my_cart"`}, "run", "--spec", spec, "--out", runOut)
	if _, err := os.Stat(runOut); err == nil {
		t.Error("a refused study created its output directory")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func slicesContains(s []string, v string) bool { return slices.Contains(s, v) }

// TestStudiesTooLargeToExist is class 5: folds, repeats or a sweep too
// large to run are refused at once, in one line that says how large the
// study would be, before anything is written; --max-units raises the
// limit.
func TestStudiesTooLargeToExist(t *testing.T) {
	defer func() { study.MaxUnits = study.DefaultMaxUnits }()
	tmp := t.TempDir()
	data := filepath.Join(tmp, "d.csv")
	writeData(t, data, 0)
	out := filepath.Join(tmp, "X")
	head := "protocols: [clean]\ndatasets: [" + data + "]\ninner_folds: 2\n"
	var values []string
	for i := 1; i <= 1000; i++ {
		values = append(values, `"`+strconv.Itoa(i)+`"`)
	}
	sweep := "[" + strings.Join(values, ", ") + "]"
	for _, c := range []struct{ name, body, want string }{
		{"folds", "folds: 1000000000\nmethods: [{name: cart}]\n", "at least 1,000,000,000 units (folds: 1000000000)"},
		{"repeats", "repeats: 100000000\nmethods: [{name: cart}]\n", "at least 500,000,000 units (repeats: 100000000)"},
		{"sweep", "methods: [{name: cart, sweep: {max_depth: " + sweep + ", min_samples_leaf: " + sweep + "}}]\n", "5 units and 5,000,000 fits"},
	} {
		spec := filepath.Join(tmp, c.name+".yaml")
		os.WriteFile(spec, []byte(head+c.body), 0o644)
		start := time.Now()
		refused(t, tmp, out, []string{c.want, "--max-units"}, "run", "--spec", spec, "--out", out)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: refusing took %v", c.name, d)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a refused study created its output", c.name)
		}
	}
	spec := filepath.Join(tmp, "small.yaml")
	writeSpec(t, spec, data, 3)
	refused(t, tmp, out, []string{"at least 3 units", "limit of 2"}, "run", "--spec", spec, "--out", out, "--max-units", "2")
	if code, _, e := runCLI("run", "--spec", spec, "--out", out, "--max-units", "3", "--no-report"); code != 0 {
		t.Fatalf("--max-units 3: %s", e)
	}
}

// editCell rewrites one cell of results.csv (row 1 = the first data row).
func editCell(t *testing.T, path string, row int, col, value string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	header := strings.Split(lines[0], ",")
	cells := strings.Split(lines[row], ",")
	i := slices.Index(header, col)
	if i < 0 || len(cells) != len(header) {
		t.Fatalf("cannot edit %s of line %d", col, row+1)
	}
	cells[i] = value
	lines[row] = strings.Join(cells, ",")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHandEditedFilesAreRefused is class 8: every reader of a results
// directory enforces the results contract — one selected row per unit and
// fold, one split per unit and fold, an identity in the manifest — and
// names the line it fails on; check --update writes no baseline from such
// a file.
func TestHandEditedFilesAreRefused(t *testing.T) {
	tmp := t.TempDir()
	data, spec := filepath.Join(tmp, "d.csv"), filepath.Join(tmp, "s.yaml")
	writeData(t, data, 0)
	os.WriteFile(spec, []byte("protocols: [clean]\ndatasets: ["+data+"]\nfolds: 3\nmethods:\n  - name: cart\n    sweep: {max_depth: [\"2\", \"3\"]}\n    selection: test\n"), 0o644)
	clean := filepath.Join(tmp, "clean")
	if code, _, e := runCLI("run", "--spec", spec, "--out", clean, "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	res, _ := os.ReadFile(filepath.Join(clean, "results.csv"))
	selectedRow := 0
	for i, l := range strings.Split(string(res), "\n")[1:] {
		if strings.Contains(l, ",true,") {
			selectedRow = i + 1
			break
		}
	}
	baseline := filepath.Join(tmp, "baseline.json")
	cases := []struct {
		name string
		edit func(dir string)
		want string
	}{
		{"selected flipped off", func(dir string) { editCell(t, filepath.Join(dir, "results.csv"), selectedRow, "selected", "false") }, "none is selected"},
		{"second selected", func(dir string) {
			other := selectedRow + 1
			if selectedRow%2 == 0 {
				other = selectedRow - 1
			}
			editCell(t, filepath.Join(dir, "results.csv"), other, "selected", "true")
		}, "a second selected row"},
		{"n_train edited", func(dir string) { editCell(t, filepath.Join(dir, "results.csv"), 2, "n_train", "7") }, "line 3: n_train 7"},
		{"identity removed", func(dir string) {
			p := filepath.Join(dir, "manifest.json")
			b, _ := os.ReadFile(p)
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "identity")
			b, _ = json.Marshal(m)
			os.WriteFile(p, b, 0o644)
		}, "records no study identity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(tmp, strings.ReplaceAll(c.name, " ", "-"))
			os.MkdirAll(dir, 0o755)
			for _, f := range []string{"results.csv", "manifest.json"} {
				b, _ := os.ReadFile(filepath.Join(clean, f))
				os.WriteFile(filepath.Join(dir, f), b, 0o644)
			}
			c.edit(dir)
			refused(t, tmp, filepath.Join(dir, "report"), []string{c.want}, "report", "--results", dir)
			if c.name != "identity removed" {
				refused(t, tmp, "", []string{c.want}, "check", "--baseline", baseline, "--results", dir, "--update")
			}
			if _, err := os.Stat(baseline); err == nil {
				t.Fatal("check --update wrote a baseline from an edited file")
			}
		})
	}
}

// TestOneDatasetUnderSeveralSpellings is class 7: a/d.csv, ./a/d.csv, its
// absolute path and a copy are one dataset, refused before anything runs.
func TestOneDatasetUnderSeveralSpellings(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir(tmp)
	os.Mkdir("a", 0o755)
	writeData(t, filepath.Join("a", "d.csv"), 0)
	b, _ := os.ReadFile(filepath.Join("a", "d.csv"))
	os.WriteFile(filepath.Join("a", "copy.csv"), b, 0o644)
	// The same table in other bytes (issue 30, class 5): the identity is
	// the parsed table's, so these are one dataset too.
	os.WriteFile(filepath.Join("a", "bom.csv"), append([]byte("\ufeff"), b...), 0o644)
	os.WriteFile(filepath.Join("a", "crlf.csv"), bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")), 0o644)
	os.WriteFile(filepath.Join("a", "blank.csv"), append(append([]byte(nil), b...), "\n\n"...), 0o644)
	out := filepath.Join(tmp, "X")
	for _, list := range []string{
		"a/d.csv, ./a/d.csv",
		"a/d.csv, " + filepath.Join(tmp, "a", "d.csv"),
		"a/d.csv, a/copy.csv",
		"a/d.csv, a/bom.csv",
		"a/d.csv, a/crlf.csv",
		"a/blank.csv, a/d.csv",
	} {
		spec := filepath.Join(tmp, "s.yaml")
		os.WriteFile(spec, []byte("protocols: [clean]\ndatasets: ["+list+"]\nfolds: 3\ninner_folds: 2\nmethods: [{name: cart}]\n"), 0o644)
		refused(t, tmp, out, []string{"hold the same table of data", "list each dataset once"}, "run", "--spec", spec, "--out", out)
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("[%s]: a refused study created its output", list)
		}
	}
}

// TestFetchTimeoutMustBePositive (class 9): 0s or a negative timeout is a
// usage error, not silently two minutes.
func TestFetchTimeoutMustBePositive(t *testing.T) {
	for _, v := range []string{"0s", "-5s", "0"} {
		code, _, e := runCLI("fetch", "--timeout", v, "appendicitis")
		if code != 2 || !strings.Contains(e, "positive duration") {
			t.Errorf("--timeout %s: exit %d, %q", v, code, e)
		}
	}
}

// TestFormulaLikeNamesAreRefused (class 9): a label or dataset name a
// spreadsheet would run as a formula never reaches a CSV output.
func TestFormulaLikeNamesAreRefused(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir(tmp)
	writeData(t, "d.csv", 0)
	writeData(t, "=cmd.csv", 0.5)
	out := filepath.Join(tmp, "X")
	for _, c := range []struct{ datasets, label, want string }{
		{"d.csv", "=HYPERLINK(1)", `method label "=HYPERLINK(1)" begins with "="`},
		{"d.csv", "@sum", `begins with "@"`},
		{"d.csv", "+x", `begins with "+"`},
		{"=cmd.csv", "cart", `dataset "=cmd.csv" begins with "="`},
	} {
		spec := filepath.Join(tmp, "s.yaml")
		os.WriteFile(spec, []byte("protocols: [clean]\ndatasets: [\""+c.datasets+"\"]\nfolds: 3\ninner_folds: 2\nmethods: [{name: cart, label: \""+c.label+"\"}]\n"), 0o644)
		refused(t, tmp, out, []string{c.want}, "run", "--spec", spec, "--out", out)
	}
}
