package learntest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/learn"
)

// stump is a describable one-split model: class Left when x[0] <= Cut, else
// class Right; its scores are the distance to the cut on the side of the
// predicted class. Fault injects one violation of the description contract.
type stump struct {
	Cut         float64 `json:"cut"`
	Left, Right int
	Fault       string `json:"fault"`
}

const stumpKind = "learntest.stump/1"

func init() {
	learn.RegisterKind(stumpKind, func(raw json.RawMessage) (learn.Predictor, error) {
		var s stump
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		if s.Fault == "unscored-rebuild" {
			return unscored{&s}, nil
		}
		return &s, nil
	})
}

type unscored struct{ s *stump }

func (u unscored) Predict(X [][]float64) []int { return u.s.Predict(X) }

func (s *stump) Predict(X [][]float64) []int {
	out := make([]int, len(X))
	for i, x := range X {
		out[i] = s.Right
		if x[0] <= s.Cut {
			out[i] = s.Left
		}
	}
	return out
}

func (s *stump) Scores(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, x := range X {
		out[i] = make([]float64, 3)
		d := x[0] - s.Cut
		if d <= 0 {
			out[i][s.Left] = 1 - d
		} else {
			out[i][s.Right] = 1 + d
		}
		if s.Fault == "scores-disagree" {
			out[i][0], out[i][2] = out[i][2], out[i][0]
		}
	}
	return out
}

func (s *stump) Complexity() learn.Complexity {
	return learn.Complexity{Rules: 2, Antecedents: 2, Leaves: 2}
}

func (s *stump) Rules(sc learn.Schema) string {
	r := fmt.Sprintf("IF a <= %g THEN class %s\nIF a > %g THEN class %s\n", s.Cut, sc.ClassName(s.Left), s.Cut, sc.ClassName(s.Right))
	return r
}

func (s *stump) Describe(sc learn.Schema) (learn.Description, error) {
	wire := *s
	if s.Fault == "lossy" {
		wire.Cut = float64(float32(s.Cut)) + 0.25 // a description that loses precision
	}
	d, err := learn.NewDescription(stumpKind, s, sc, wire)
	if s.Fault == "rules-dropped" {
		d.Rules = d.Rules[:1]
	}
	return d, err
}

func TestCheckDescription(t *testing.T) {
	d := Problems()[0]
	cases := []struct {
		fault string
		want  string // "" = conforming
	}{
		{"", ""},
		{"lossy", "predicts the training rows differently"},
		{"scores-disagree", "single out class"},
		{"rules-dropped", "description has 1 rules, Complexity says 2"},
		{"unscored-rebuild", "its reconstruction does not"},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			m := &stump{Cut: 0.5, Left: 0, Right: 2, Fault: c.fault}
			errs := CheckDescription(m, d)
			if c.want == "" {
				for _, err := range errs {
					t.Error(err)
				}
				return
			}
			found := false
			for _, err := range errs {
				found = found || strings.Contains(err.Error(), c.want)
			}
			if !found {
				t.Errorf("violation %q not reported; got %v", c.want, errs)
			}
		})
	}
}

func TestCheckScores(t *testing.T) {
	cases := []struct {
		name   string
		scores [][]float64
		pred   []int
		ok     bool
	}{
		{"unique max agrees", [][]float64{{0.1, 0.9}}, []int{1}, true},
		{"unique max disagrees", [][]float64{{0.1, 0.9}}, []int{0}, false},
		{"tie within the margin is exempt", [][]float64{{0.5, 0.5 + 1e-7}}, []int{0}, true},
		{"abstention is exempt", [][]float64{{0.1, 0.9}}, []int{-1}, true},
		{"NaN is exempt", [][]float64{{0.1, nan()}}, []int{0}, true},
		{"wrong width", [][]float64{{1}}, []int{0}, false},
		{"wrong length", [][]float64{{1, 0}}, []int{0, 0}, false},
	}
	for _, c := range cases {
		err := CheckScores(c.scores, c.pred, 2)
		if (err == nil) != c.ok {
			t.Errorf("%s: CheckScores = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

func nan() float64 { var z float64; return z / z }
