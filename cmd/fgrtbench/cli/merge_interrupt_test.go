//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

// TestMergeInterruptedCleanly (issue 30, "messages that say what
// happened"): a merge stopped by a first signal before it writes leaves
// --out as it was and says so in its own words, exit 1; one stopped while
// it writes finishes the writes, and a second signal waits for them
// (holdExit) and then says the merge was written; a second signal's line
// is worded for the command running.
func TestMergeInterruptedCleanly(t *testing.T) {
	spec := tinyStudy(t)
	root := t.TempDir()
	var shards []string
	for i := range 2 {
		dir := filepath.Join(root, "shard"+itoa(i))
		if code, _, e := runCLI("run", "--spec", spec, "--out", dir, "--shard", itoa(i)+"/2", "--no-report"); code != 0 {
			t.Fatalf("shard %d: %s", i, e)
		}
		shards = append(shards, dir)
	}
	merge := func(ctx context.Context, out string) (int, string) {
		var o, e bytes.Buffer
		env := &command.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
		return Main(ctx, env, append([]string{"merge", "--out", out}, shards...)), e.String()
	}

	// Interrupted before writing: into a new directory, and into one
	// that holds an earlier merge (its files must stay as they were).
	earlier := filepath.Join(root, "earlier")
	if code, e := merge(context.Background(), earlier); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	// The run lock records who holds it and since when (to the second), so
	// taking it rewrites it: the tree is compared without its contents.
	sansLock := func() string {
		lines := treeLines(t, root, "")
		for i, l := range lines {
			if p, _, ok := strings.Cut(l, " "); ok && filepath.Base(p) == outdir.LockFile {
				lines[i] = p
			}
		}
		return hashLines(lines)
	}
	for _, out := range []string{filepath.Join(root, "new"), earlier} {
		before := sansLock()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		code, e := merge(ctx, out)
		if code != 1 || strings.TrimSpace(e) != "fgrtbench merge: interrupted before anything was written: nothing was merged, "+out+" is as it was" {
			t.Errorf("%s: exit %d, %q", out, code, e)
		}
		if sansLock() != before {
			t.Errorf("%s: an interrupted merge changed files", out)
		}
	}

	// Signalled while it writes: the exit waits, the note says the merge
	// is whole, and the merge completes.
	out := filepath.Join(root, "during")
	ctx, cancel := context.WithCancel(context.Background())
	var held bool
	var note string
	mergeCommitHook = func() {
		held = !exitGuard.hold.TryLock()
		note = exitNote([]string{"merge"})
		cancel() // a first signal now: the writes go on
	}
	defer func() { mergeCommitHook = nil }()
	code, e := merge(ctx, out)
	if !held {
		t.Error("a merge writing did not hold off a second signal's exit")
	}
	if note != "exiting now; nothing was merged, "+out+" is as it was" {
		t.Errorf("note before the writes: %q", note)
	}
	if !exitGuard.hold.TryLock() {
		t.Fatal("the merge did not release the exit hold")
	}
	exitGuard.hold.Unlock()
	// Cancelled after the hold: the merge stops before writing.
	if code != 1 || !strings.Contains(e, "nothing was merged") {
		t.Errorf("cancelled at commit: exit %d, %q", code, e)
	}
	if _, err := os.Stat(out); err == nil {
		if entries, _ := os.ReadDir(out); len(entries) > 0 {
			t.Errorf("a merge cancelled at its commit wrote %v", entries)
		}
	}

	// Not cancelled: it writes, and afterwards a second signal has the
	// command's default wording again.
	mergeCommitHook = nil
	if code, e := merge(context.Background(), out); code != 0 {
		t.Fatalf("merge: %s", e)
	}
	if got := exitNote([]string{"merge"}); got != "exiting now" {
		t.Errorf("after the merge the note is still its own: %q", got)
	}
	for _, c := range []struct{ args, want string }{
		{"run", "finished units are kept, run the same command again to resume"},
		{"reproduce", "run the same command again to resume"},
		{"merge", "exiting now"},
		{"report", "exiting now"},
	} {
		if got := exitNote([]string{c.args}); !strings.Contains(got, c.want) || (c.args == "merge" && strings.Contains(got, "resume")) {
			t.Errorf("%s: second-signal note %q, want %q", c.args, got, c.want)
		}
	}
}
