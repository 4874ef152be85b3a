//go:build unix

package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
)

// writerFixture is what the writing commands read: a data file, a study
// spec, a finished results directory and the shards of the same study.
type writerFixture struct {
	tmp, data, spec, results, baseline string
	shards                             []string
}

// writers gives, for every command that writes files, the arguments that
// make it write into out. A command that takes --out and is missing here
// fails TestEveryWriterKeepsForeignFiles, so a new writer is covered as
// soon as it is registered.
var writers = map[string]func(f writerFixture, out string) []string{
	"folds": func(f writerFixture, out string) []string {
		return []string{"folds", "--dataset", f.data, "--protocol", "clean", "--folds", "3", "--out", out}
	},
	"plot all": func(f writerFixture, out string) []string {
		return []string{"plot", "all", "--results", f.results, "--out", out}
	},
	"plot partitions": func(f writerFixture, out string) []string {
		return []string{"plot", "partitions", "--dataset", f.data, "--feature", "x1", "--protocol", "raw", "--out", out}
	},
	"runtime": func(f writerFixture, out string) []string {
		return []string{"runtime", "--out", out, "--methods", "cart", "--samples", "40", "--features", "", "--trials", "1"}
	},
	// speed writes only with --scaling (its children are this test
	// binary acting as fgrtbench: TestMain).
	"speed": func(f writerFixture, out string) []string {
		return []string{"speed", "--scaling", "--scaling-studies", "large", "--scaling-j", "1", "--scaling-rows", "300", "--out", out}
	},
	"run": func(f writerFixture, out string) []string {
		return []string{"run", "--spec", f.spec, "--out", out, "-j", "1"}
	},
	"reproduce": func(f writerFixture, out string) []string {
		return []string{"reproduce", "--protocol", "clean", "--methods", "cart", "--datasets", f.data, "--no-variants", "--no-report", "--out", out, "-j", "1"}
	},
	// check runs the baseline's study into --out.
	"check": func(f writerFixture, out string) []string {
		return []string{"check", "--baseline", f.baseline, "--out", out, "-j", "1"}
	},
	"merge": func(f writerFixture, out string) []string {
		return append([]string{"merge", "--out", out}, f.shards...)
	},
	// report takes no --out: it writes DIR/report of --results, which
	// the test fills with a copy of the finished results first.
	"report": func(f writerFixture, out string) []string {
		return []string{"report", "--results", out}
	},
}

// writersWithoutOut are the writers the registry cannot find by their
// --out flag, with the results they need in out before they run.
var writersWithoutOut = map[string]bool{"report": true}

// commandsWithOut lists every command and subcommand with an --out flag.
func commandsWithOut(cs []*command.Command) []string {
	var out []string
	for _, c := range cs {
		if c.Flag.Lookup("out") != nil {
			out = append(out, c.LongName())
		}
		out = append(out, commandsWithOut(c.Commands)...)
	}
	return out
}

// writtenNames lists the files under dir, relative, except the markers
// and the run lock (which are fgrtbench's bookkeeping, checked by their
// own tests).
func writtenNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	if _, err := os.Lstat(dir); err != nil {
		return nil
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case ".fgrtbench-files", ".fgrtbench-report", ".fgrtbench.lock":
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// sample keeps every top-level name and, of each subdirectory's names,
// the first and the last: the files of one subdirectory are written by
// one call (a report's tables, the figures), so two of them stand for
// all. Without -short, every name is planted.
func sample(names []string) []string {
	if !testing.Short() {
		return names
	}
	bySub := map[string][]string{}
	var out []string
	for _, n := range names {
		if dir := filepath.Dir(n); dir != "." {
			bySub[dir] = append(bySub[dir], n)
			continue
		}
		out = append(out, n)
	}
	for _, ns := range bySub {
		out = append(out, ns[0])
		if len(ns) > 1 {
			out = append(out, ns[len(ns)-1])
		}
	}
	sort.Strings(out)
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestEveryWriterKeepsForeignFiles is item 4 of issue 30 ("one write
// path"): for every command that writes (found from the registry by its
// --out flag), a file of the user's planted at each name the command
// writes survives byte-identical, and so does the target of a symbolic
// link planted there; the command exits 1 with one line naming the path,
// and nothing outside its output directory changes.
func TestEveryWriterKeepsForeignFiles(t *testing.T) {
	var f writerFixture
	f.tmp, f.data, f.spec = studyFixture(t)
	f.results = filepath.Join(f.tmp, "results")
	if code, _, e := runCLI("run", "--spec", f.spec, "--out", f.results, "-j", "1", "--no-report"); code != 0 {
		t.Fatalf("run: %s", e)
	}
	f.shards = runShards(t, f.spec, f.tmp, 2)
	f.baseline = filepath.Join(f.tmp, "baseline.json")
	if code, _, e := runCLI("check", "--baseline", f.baseline, "--results", f.results, "--update"); code != 0 {
		t.Fatalf("check --update: %s", e)
	}

	cmds := commandsWithOut(Commands())
	for name := range writersWithoutOut {
		cmds = append(cmds, name)
	}
	sort.Strings(cmds)
	for _, name := range cmds {
		args, ok := writers[name]
		if !ok {
			t.Errorf("%s takes --out but TestEveryWriterKeepsForeignFiles has no arguments for it: add it to writers", name)
			continue
		}
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			root := t.TempDir()
			prepare := func(out string) {
				if writersWithoutOut[name] {
					copyTree(t, f.results, out)
				}
			}
			// What the command writes, found by running it once.
			clean := filepath.Join(root, "clean")
			prepare(clean)
			before := writtenNames(t, clean)
			if code, _, e := runCLI(args(f, clean)...); code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, e)
			}
			written := writtenNames(t, clean)
			written = slices.DeleteFunc(written, func(n string) bool { return slices.Contains(before, n) })
			if len(written) == 0 {
				t.Fatalf("%s wrote nothing", name)
			}
			victim := filepath.Join(root, "victim.txt")
			if err := os.WriteFile(victim, []byte("another user's file\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for i, n := range sample(written) {
				for _, kind := range []string{"file", "link"} {
					out := filepath.Join(root, kind+itoa(i))
					prepare(out)
					path := filepath.Join(out, n)
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					mine := []byte("a file of the user's named " + n + "\n")
					if kind == "file" {
						if err := os.WriteFile(path, mine, 0o644); err != nil {
							t.Fatal(err)
						}
					} else if err := os.Symlink(victim, path); err != nil {
						t.Fatal(err)
					}
					refusedAfterProgress(t, root, out, path, args(f, out)...)
					switch kind {
					case "file":
						if b, err := os.ReadFile(path); err != nil || string(b) != string(mine) {
							t.Errorf("%s replaced or changed the user's %s (%d bytes now, %v)", name, n, len(b), err)
						}
					case "link":
						if target, err := os.Readlink(path); err != nil || target != victim {
							t.Errorf("%s replaced the link at %s: %q %v", name, n, target, err)
						}
					}
				}
			}
		})
	}
}

// refusedAfterProgress is refused for a command that may report progress
// ("fgrtbench: ..." lines) before its refusal: exit 1, one line of error
// (the progress lines aside) naming path, and nothing changed outside out.
func refusedAfterProgress(t *testing.T, root, out, path string, args ...string) {
	t.Helper()
	before := treeHash(t, root, out)
	code, _, errOut := runCLI(args...)
	var errs []string
	for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if !strings.HasPrefix(l, "fgrtbench: ") {
			errs = append(errs, l)
		}
	}
	if code != 1 || len(errs) != 1 || !strings.Contains(errs[0], path) {
		t.Errorf("%v: exit %d, want 1 with one line naming %s; stderr %q", args, code, path, errOut)
	}
	if after := treeHash(t, root, out); after != before {
		t.Errorf("%v changed files outside its output directory", args)
	}
}
