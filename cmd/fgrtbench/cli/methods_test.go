package cli

import (
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/external"
)

// TestMethodsExternal: `methods external` (and `methods` alone) explains the
// external kind well enough to write a spec: the keys of its block, every
// placeholder of the command, the contract and an example to run.
func TestMethodsExternal(t *testing.T) {
	for _, args := range [][]string{{"methods", "external"}, {"methods"}} {
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v exited %d: %s", args, code, errOut)
		}
		want := []string{"docs/external.md", "command:", "adapter:", "params:", "timeout:", "deterministic:",
			"examples/external/sklearn.yaml"}
		for _, p := range external.Placeholders() {
			want = append(want, p[0]+" ")
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", args, w, out)
			}
		}
	}
}
