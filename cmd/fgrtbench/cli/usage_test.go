package cli

import (
	"strings"
	"testing"
)

// TestUsageNamesHoldout: folds and reproduce accept the holdout protocol,
// and their usage lines say so.
func TestUsageNamesHoldout(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"folds", "--protocol paper|clean|holdout "},
		{"reproduce", "--protocol paper|clean|holdout|both]"},
	} {
		_, out, _ := runCLI(c.cmd, "-h")
		if !strings.Contains(out, c.want) {
			t.Errorf("%s usage does not name the holdout protocol:\n%s", c.cmd, out)
		}
	}
}
