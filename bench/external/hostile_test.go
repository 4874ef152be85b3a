//go:build unix

package external

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestHostileAdapterOutputs: an adapter that leaves a FIFO, a link to a
// device or an endless file where fgrtbench reads predictions.txt or
// result.json fails its unit with one line, promptly, instead of hanging
// the run or exhausting its memory.
func TestHostileAdapterOutputs(t *testing.T) {
	d := learntest.Problems()[0]
	cases := []struct{ name, script, want string }{
		{"predictions fifo", `mkfifo "$1/predictions.txt"`, "named pipe"},
		{"predictions to /dev/zero", `ln -s /dev/zero "$1/predictions.txt"`, "symbolic link"},
		{"predictions to another file", `echo red > "$1/mine"; ln -s "$1/mine" "$1/predictions.txt"`, "symbolic link"},
		{"predictions endless", `yes red | head -c 3000000 > "$1/predictions.txt"`, "larger than"},
		{"result fifo", `yes red | head -n 23 > "$1/predictions.txt"; mkfifo "$1/result.json"`, "named pipe"},
		{"result to /dev/zero", `yes red | head -n 23 > "$1/predictions.txt"; ln -s /dev/zero "$1/result.json"`, "symbolic link"},
		{"result huge", `yes red | head -n 23 > "$1/predictions.txt"; head -c 17000000 /dev/zero > "$1/result.json"`, "larger than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			script := filepath.Join(t.TempDir(), "adapter.sh")
			if err := os.WriteFile(script, []byte("set -e\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			s := Spec{Command: "sh " + script + " {dir}", Timeout: "20s", Adapter: script}
			tr, _ := trainerOf(t, s, nil)(1)
			done := make(chan error, 1)
			go func() {
				m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
				if err == nil {
					_, _, err = learn.PredictChecked(m, d.XTest, d.Schema.NumClasses())
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error %v, want one line containing %q", err, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the unit hung on its adapter's output")
			}
		})
	}
}

// TestShellScriptPlaceholdersAreQuoted: a parameter value holding shell
// syntax, substituted into the script of sh -c, is text for that shell:
// the command substitution does not run and the script sees the value
// itself. Outside a shell script the value is one argument as it is.
func TestShellScriptPlaceholdersAreQuoted(t *testing.T) {
	d := learntest.Problems()[0]
	tmp := t.TempDir()
	mark, echo := filepath.Join(tmp, "MARK"), filepath.Join(tmp, "echo.txt")
	value := "$(touch " + mark + ") `touch " + mark + "` && touch " + mark + " 'q'"
	adapter := filepath.Join(tmp, "adapter.txt") // identifies the method; never run
	os.WriteFile(adapter, []byte("v1\n"), 0o644)
	s := Spec{
		Adapter: adapter,
		Command: `sh -c "printf %s {x} > ` + echo + ` && exit 3"`,
		Params:  map[string]string{"x": "plain"},
		Timeout: "20s",
	}
	tr, err := trainerOf(t, s, map[string]string{"x": value})(1)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema); err == nil {
		learn.PredictChecked(m, d.XTest, d.Schema.NumClasses())
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a parameter value ran as shell code")
	}
	if got, _ := os.ReadFile(echo); string(got) != value {
		t.Fatalf("the script saw %q, want the value %q", got, value)
	}
	for _, c := range []struct {
		cmd  string
		want int
	}{
		{`sh -c "x {x}"`, 2}, {`bash -ec "x {x}"`, 2}, {`/usr/bin/env sh -c "x"`, 3},
		{`python3 {x}`, -1}, {`sh script.sh {x}`, -1}, {`sh -c`, -1},
	} {
		tpl, err := parseTemplate(c.cmd, map[string]string{"x": ""})
		if err != nil {
			t.Fatal(err)
		}
		if got := tpl.shellScript(); got != c.want {
			t.Errorf("%s: script word %d, want %d", c.cmd, got, c.want)
		}
	}
}
