package fuzzycart_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
	"github.com/fgrtbench/fgrtbench/datasets"
	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

var exportDir = flag.String("export", "", "TestExportKEELInputs: write the clean folds of the KEEL datasets here, for testdata/gen_golden.py --inputs")

// keelDatasets are the ten datasets of the paper.
var keelDatasets = []string{"appendicitis", "australian", "dermatology", "hepatitis", "pima", "ring", "saheart", "spambase", "wine", "zoo"}

// keelConfigs are the reference settings the KEEL vectors pin: the
// defaults, purity, a ccp_alpha > 0 as fit sees it (ignored) and as the
// reference's cost_complexity_pruning applies it, and a small max_depth
// (ignored too).
var keelConfigs = []map[string]string{
	{},
	{"target_metric": "purity"},
	{"ccp_alpha": "0.01"},
	{"ccp_alpha": "0.01", "apply_ccp_alpha": "true"},
	{"max_depth": "2"},
}

// cleanFolds loads a KEEL dataset from the shared mirror and plans the
// clean protocol's default folds (5 folds, seed 42), as reproduce does.
func cleanFolds(t testing.TB, name string) *protocol.Plan {
	t.Helper()
	mirror := sharedtest.Mirror()
	if mirror == "" {
		t.Skip("KEEL mirror not found")
	}
	d, err := datasets.ReadKEELFile(filepath.Join(mirror, name+".dat"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := protocol.Clean{}.Plan(d, protocol.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExportKEELInputs writes, with -export DIR, each clean fold's scaled
// training and test rows exactly as the learner receives them, for the
// generator. The files hold data from ../shared and are never committed.
func TestExportKEELInputs(t *testing.T) {
	if *exportDir == "" {
		t.Skip("-export not set")
	}
	for _, name := range keelDatasets {
		p := cleanFolds(t, name)
		for k := range p.Folds {
			f := &p.Folds[k]
			xtr, xte := f.Matrices(nil)
			doc := map[string]any{"name": fmt.Sprintf("%s-fold%d", name, k), "dataset": name, "fold": k,
				"nominal": p.Schema.NominalMask(), "x_train": xtr, "y_train": f.YTrain, "x_test": xte, "configs": keelConfigs}
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*exportDir, fmt.Sprintf("%s-fold%d.json", name, k)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
