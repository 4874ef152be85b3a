package external

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// humanBytes writes a cap as the docs do: 16 MiB, 4 KiB, 40 bytes.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// TestDocsStateTheCaps (issue 30): the caps on an adapter's outputs that
// docs/shared-storage.md and docs/external.md give are the ones the code
// enforces, derived here from its constants.
func TestDocsStateTheCaps(t *testing.T) {
	if got, want := predictionsCap(23, 5), int64(24*7+predictionsSlack); got != want {
		t.Fatalf("predictionsCap(23, 5) = %d, want (23+1)×(5+2)+slack = %d", got, want)
	}
	predictions := "(test rows + 1) × (longest class name + 2) + " + humanBytes(predictionsSlack)
	for _, c := range []struct {
		doc   string
		wants []string
	}{
		{"../../docs/shared-storage.md", []string{
			"| an adapter's `result.json` | " + humanBytes(maxResultBytes) + " |",
			"| an adapter's `predictions.txt` | " + predictions + " |",
		}},
		{"../../docs/external.md", []string{
			"`predictions.txt` " + predictions,
			"`result.json` " + humanBytes(maxResultBytes),
			"`scores.csv` " + humanBytes(maxScoreCellBytes) + " per score and row",
		}},
	} {
		b, err := os.ReadFile(c.doc)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, w := range c.wants {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q", c.doc, w)
			}
		}
	}
}
