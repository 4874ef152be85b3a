package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/command"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	env := &command.Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
	code = Main(context.Background(), env, args)
	return code, o.String(), e.String()
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, out, _ := runCLI("help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	for _, c := range Commands() {
		if !strings.Contains(out, "  "+c.Name+" ") {
			t.Errorf("help does not list %s", c.Name)
		}
	}
}

func TestEverySubcommandHasDashH(t *testing.T) {
	for _, c := range Commands() {
		code, out, errOut := runCLI(c.Name, "-h")
		if code != 0 {
			t.Errorf("%s -h exited %d (%s)", c.Name, code, errOut)
		}
		if !strings.Contains(out, "Usage: fgrtbench "+c.Name) {
			t.Errorf("%s -h printed no usage: %q", c.Name, out)
		}
		code, out, _ = runCLI("help", c.Name)
		if code != 0 || !strings.Contains(out, "Usage: fgrtbench "+c.Name) {
			t.Errorf("help %s: %d %q", c.Name, code, out)
		}
	}
}

func TestUnknownCommandAndFlag(t *testing.T) {
	code, _, errOut := runCLI("frobnicate")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("unknown command: %d %q", code, errOut)
	}
	code, _, errOut = runCLI("fetch", "--no-such-flag")
	if code != 2 || !strings.Contains(errOut, "no-such-flag") {
		t.Fatalf("unknown flag: %d %q", code, errOut)
	}
}

func TestUnknownNamesAreOneLineErrors(t *testing.T) {
	cases := [][]string{
		{"fetch", "nosuchdata"},
		{"reproduce", "--datasets", "nosuchdata", "--out", "x"},
		{"reproduce", "--methods", "nosuchmethod", "--out", "x"},
		{"reproduce", "--protocol", "nosuchprotocol", "--out", "x"},
	}
	for _, args := range cases {
		code, _, errOut := runCLI(args...)
		if code != 1 {
			t.Errorf("%v exited %d, want 1 (%s)", args, code, errOut)
		}
		if n := strings.Count(strings.TrimSpace(errOut), "\n"); n != 0 || !strings.Contains(errOut, "unknown") {
			t.Errorf("%v: want a one-line 'unknown ...' error, got %q", args, errOut)
		}
	}
}
