package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListFlagsRefuseRepeatsAndEmptyItems is item 6 of issue 40: every
// list flag of every command refuses an empty item and an item given twice
// (by what it means: 1 and 01, two caps of one method), in one line and
// before anything runs or is written. --scaling-studies paper,paper ran the
// same ten-minute study twice, and --scaling-j 1,,2 and 1,1 were accepted.
func TestListFlagsRefuseRepeatsAndEmptyItems(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"speed", "--scaling", "--scaling-j", "1,1"}, "--scaling-j 1,1: item 2 (1) repeats item 1 (1); give each once"},
		{[]string{"speed", "--scaling", "--scaling-j", "1,01"}, "--scaling-j 1,01: item 2 (01) repeats item 1 (1)"},
		{[]string{"speed", "--scaling", "--scaling-j", "1,,2"}, "--scaling-j 1,,2: item 2 of 3 is empty; separate the items with single commas"},
		{[]string{"speed", "--scaling", "--scaling-j", "1,2,"}, "--scaling-j 1,2,: item 3 of 3 is empty"},
		{[]string{"speed", "--scaling", "--scaling-studies", "paper,paper"}, "--scaling-studies paper,paper: item 2 (paper) repeats item 1 (paper)"},
		{[]string{"speed", "--scaling", "--scaling-studies", ",large"}, "--scaling-studies ,large: item 1 of 2 is empty"},
		{[]string{"reproduce", "--datasets", "wine, wine"}, "--datasets wine, wine: item 2 (wine) repeats item 1 (wine)"},
		{[]string{"reproduce", "--datasets", "wine,,iris"}, "--datasets wine,,iris: item 2 of 3 is empty"},
		{[]string{"reproduce", "--methods", "cart,cart"}, "--methods cart,cart: item 2 (cart) repeats item 1 (cart)"},
		{[]string{"reproduce", "--methods", "cart,"}, "--methods cart,: item 2 of 2 is empty"},
		{[]string{"runtime", "--methods", "cart,cart"}, "--methods cart,cart: item 2 (cart) repeats"},
		{[]string{"runtime", "--samples", "20,40,20"}, "--samples 20,40,20: item 3 (20) repeats item 1 (20)"},
		{[]string{"runtime", "--samples", "20,,40"}, "--samples 20,,40: item 2 of 3 is empty"},
		{[]string{"runtime", "--features", "5,5"}, "--features 5,5: item 2 (5) repeats"},
		{[]string{"runtime", "--cap", "fga=1000,fga=2000"}, "--cap fga=1000,fga=2000: item 2 (fga=2000) repeats item 1 (fga=1000)"},
		{[]string{"runtime", "--datasets", "wine,wine"}, "--datasets wine,wine: item 2 (wine) repeats"},
		{[]string{"runtime", "--datasets", "wine,"}, "--datasets wine,: item 2 of 2 is empty"},
	} {
		args := append(append([]string{}, c.args...), "--out", out)
		code, stdout, stderr := runCLI(args...)
		if code == 0 || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: wrote %s", c.args, out)
		}
	}
	// A flag given but naming nothing keeps its own words.
	code, _, stderr := runCLI("reproduce", "--datasets", ",", "--out", out)
	if code == 0 || !strings.Contains(stderr, "--datasets is empty; name at least one") {
		t.Errorf("--datasets ,: exit %d, %q", code, stderr)
	}
}
