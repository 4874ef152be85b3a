package analysis

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestScoresMatchScikitLearn pins MacroAUC and LogLoss to the values
// scikit-learn computes for the same scores (testdata/scores.json, written
// by testdata/gen_scores.py): ties, scores that are not probabilities,
// zeros clipped by eps, a class absent from the truth.
func TestScoresMatchScikitLearn(t *testing.T) {
	data, err := os.ReadFile("testdata/scores.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Eps   float64 `json:"eps"`
		Cases []struct {
			Name       string      `json:"name"`
			Classes    int         `json:"classes"`
			Scores     [][]float64 `json:"scores"`
			Truth      []int       `json:"truth"`
			AUC        float64     `json:"auc_macro"`
			LogLoss    float64     `json:"log_loss"`
			SklearnOvR *float64    `json:"auc_sklearn_ovr"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.Eps != LogLossEps {
		t.Errorf("LogLossEps = %g, scikit-learn's eps %g", LogLossEps, ref.Eps)
	}
	if len(ref.Cases) < 6 {
		t.Fatalf("only %d reference cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		t.Run(c.Name, func(t *testing.T) {
			auc := MacroAUC(c.Scores, c.Truth, c.Classes)
			if math.Abs(auc-c.AUC) > 1e-12 {
				t.Errorf("MacroAUC = %.17g, scikit-learn %.17g", auc, c.AUC)
			}
			if c.SklearnOvR != nil && math.Abs(auc-*c.SklearnOvR) > 1e-12 {
				t.Errorf("MacroAUC = %.17g, roc_auc_score(ovr, macro) %.17g", auc, *c.SklearnOvR)
			}
			if ll := LogLoss(c.Scores, c.Truth); math.Abs(ll-c.LogLoss) > 1e-12*max(1, c.LogLoss) {
				t.Errorf("LogLoss = %.17g, scikit-learn %.17g", ll, c.LogLoss)
			}
		})
	}
}

func TestBinaryAUCWithoutBothClasses(t *testing.T) {
	for _, pos := range [][]bool{{true, true}, {false, false}, {}} {
		if auc := BinaryAUC(make([]float64, len(pos)), pos); !math.IsNaN(auc) {
			t.Errorf("BinaryAUC with positives %v = %v, want NaN", pos, auc)
		}
	}
}
