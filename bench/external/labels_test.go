//go:build unix

package external

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
	"github.com/fgrtbench/fgrtbench/learn/learntest"
)

// TestPredictionLabelsNamed (issue 30, "messages that say what happened"):
// a predictions.txt that holds a label that is not a class (unknown,
// padded, behind a byte-order mark) names the label and its line, also
// when the padding makes the file larger than its cap; the cap is the one
// docs/shared-storage.md documents, slack included.
func TestPredictionLabelsNamed(t *testing.T) {
	d := learntest.Problems()[0]
	n := len(d.XTest)
	first := d.Schema.ClassName(0)
	longest := 0
	for k := range d.Schema.Classes {
		longest = max(longest, len(d.Schema.ClassName(k)))
	}
	capBytes := (n+1)*(longest+2) + 4096
	lines := func(k int, line string) string { return strings.Repeat(line+"\n", k) }
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"unknown label", lines(2, first) + "purple\n" + lines(n-3, first), []string{`line 3: "purple" is not a class of the schema`}},
		{"label padded", " " + first + "\n" + lines(n-1, first), []string{`line 1: " ` + first + `" is not a class`, `it is "` + first + `" with spaces around it`}},
		{"labels padded past the cap", lines(n, first+strings.Repeat(" ", 400)), []string{`line 1: "` + first + `   `, "(" + strconv.Itoa(len(first)+400) + " bytes)", "with spaces around it"}},
		{"byte-order mark", "\ufeff" + lines(n, first), []string{`line 1: "\ufeff` + first + `" is not a class`, "starts with a byte-order mark"}},
		{"long unknown label", strings.Repeat("x", 100000) + "\n", []string{`line 1: "xxxx`, "running past the file's cap of " + strconv.Itoa(capBytes) + " bytes, is not a class"}},
		{"one line too many", lines(n+1, first), []string{"has " + strconv.Itoa(n+1) + " predictions for " + strconv.Itoa(n) + " test rows"}},
		{"CRLF lines within the cap", strings.ReplaceAll(lines(n, first), "\n", "\r\n"), nil},
		{"trailing junk within the slack", lines(n, first) + strings.Repeat("#", 3000), []string{`line ` + strconv.Itoa(n+1) + `: "###`}},
		{"endless valid lines", lines(capBytes, first), []string{"is larger than " + strconv.Itoa(capBytes) + " bytes", "test rows of class names can take: its first"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			pred := filepath.Join(tmp, "pred.txt")
			if err := os.WriteFile(pred, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(tmp, "adapter.sh")
			os.WriteFile(script, []byte(`cp "`+pred+`" "$1/predictions.txt"`+"\n"), 0o755)
			tr, _ := trainerOf(t, Spec{Command: "sh " + script + " {dir}", Timeout: "20s", Adapter: script}, nil)(1)
			m, err := tr.Fit(d.XTrain, d.YTrain, d.Schema)
			if err == nil {
				_, _, err = learn.PredictChecked(m, d.XTest, d.Schema.NumClasses())
			}
			if c.want == nil {
				if err != nil {
					t.Fatalf("valid predictions refused: %v", err)
				}
				return
			}
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
