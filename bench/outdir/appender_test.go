package outdir

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestWriteErrorAdvice: the one-line message advises what the cause calls
// for (space, permissions, or the cause itself), not free space for all.
func TestWriteErrorAdvice(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{syscall.ENOSPC, "free space"},
		{syscall.EDQUOT, "free space"},
		{syscall.EACCES, "permissions"},
		{syscall.EPERM, "permissions"},
		{&os.PathError{Op: "open", Path: "/out/results.csv", Err: syscall.EACCES}, "permissions"},
		{syscall.EROFS, "read-only"},
		{syscall.EIO, "fix that cause"},
	}
	for _, c := range cases {
		msg := (&WriteError{Path: "/out/results.csv", Err: c.err}).Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || !strings.Contains(msg, "run the same command again") {
			t.Errorf("%v: %q lacks %q", c.err, msg, c.want)
		}
		if c.want != "free space" && strings.Contains(msg, "free space") {
			t.Errorf("%v: %q advises freeing space", c.err, msg)
		}
	}
}
