package learntest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"

	"github.com/fgrtbench/fgrtbench/learn"
)

// CheckDescription checks the promise of learn.Describer and learn.Scorer
// on a model fitted to d, for models that implement them (others pass):
//
//   - the Description survives JSON: marshal, unmarshal and marshal again
//     give the same bytes;
//   - its rules are the "IF " lines of Model.Rules, so len(rules) equals
//     Complexity().Rules;
//   - learn.Reconstruct on the decoded Description alone predicts exactly
//     what the model predicts, on the training rows and on the test rows;
//   - where the model scores, the reconstruction scores too, bit for bit,
//     one column per class; and on every row where one class's score
//     exceeds every other's by more than learn.ScoreTieMargin the
//     prediction is that class. Rows predicted -1 (FGRT's root under quirk
//     Q2, FGA's empty rule base) and rows whose largest score is not
//     unique by that margin are exempt: there the learner's own order
//     (node order, rule order) breaks the tie, which class-wise scores
//     cannot express.
func CheckDescription(m learn.Model, d Data) []error {
	desc, ok := m.(learn.Describer)
	if !ok {
		return nil
	}
	var decoded learn.Description
	if err := safely(func() (err error) { decoded, err = describeRoundTrip(desc, d.Schema); return err }); err != nil {
		return []error{err}
	}
	errs := checkDescribed(decoded, m, d.Schema)
	var rebuilt learn.Predictor
	if err := safely(func() error { var err error; rebuilt, err = learn.Reconstruct(decoded); return err }); err != nil {
		return append(errs, fmt.Errorf("reconstruct: %v", err))
	}
	for _, part := range []struct {
		name string
		X    [][]float64
	}{{"training", d.XTrain}, {"test", d.XTest}} {
		errs = append(errs, checkRebuilt(m, rebuilt, part.name, part.X, d.Schema.NumClasses())...)
	}
	return errs
}

// describeRoundTrip describes the model and returns the description as
// decoded from its JSON, which must marshal again to the same bytes.
func describeRoundTrip(desc learn.Describer, s learn.Schema) (learn.Description, error) {
	var decoded learn.Description
	dsc, err := desc.Describe(s)
	if err != nil {
		return decoded, fmt.Errorf("describe: %w", err)
	}
	b1, err := json.Marshal(dsc)
	if err != nil {
		return decoded, fmt.Errorf("marshal: %w", err)
	}
	if err := json.Unmarshal(b1, &decoded); err != nil {
		return decoded, fmt.Errorf("unmarshal: %w", err)
	}
	b2, err := json.Marshal(decoded)
	if err != nil {
		return decoded, fmt.Errorf("marshal the decoded description: %w", err)
	}
	if !bytes.Equal(b1, b2) {
		return decoded, fmt.Errorf("JSON does not round-trip:\n%s\nvs\n%s", b1, b2)
	}
	return decoded, nil
}

// checkDescribed checks a decoded description's rules and names against
// the model and the schema.
func checkDescribed(decoded learn.Description, m learn.Model, s learn.Schema) []error {
	var errs []error
	if cx := m.Complexity(); len(decoded.Rules) != cx.Rules {
		errs = append(errs, fmt.Errorf("description has %d rules, Complexity says %d", len(decoded.Rules), cx.Rules))
	}
	if want := learn.RuleLines(m.Rules(s)); !reflect.DeepEqual(decoded.Rules, want) {
		errs = append(errs, fmt.Errorf("description rules %q differ from the IF lines of Rules %q", decoded.Rules, want))
	}
	if len(decoded.Classes) != s.NumClasses() || len(decoded.Features) != s.NumFeatures() {
		errs = append(errs, fmt.Errorf("description names %d features and %d classes, schema has %d and %d",
			len(decoded.Features), len(decoded.Classes), s.NumFeatures(), s.NumClasses()))
	}
	return errs
}

// checkRebuilt checks that the reconstruction predicts the rows X (the
// part name of the data) as the model does and, where the model scores,
// scores them alike, with scores that agree with the predictions.
func checkRebuilt(m learn.Model, rebuilt learn.Predictor, name string, X [][]float64, nClasses int) []error {
	want := m.Predict(X)
	var got []int
	if err := safely(func() error { got = rebuilt.Predict(X); return nil }); err != nil {
		return []error{fmt.Errorf("reconstruction predicting the %s rows: %v", name, err)}
	}
	var errs []error
	if !reflect.DeepEqual(got, want) {
		errs = append(errs, fmt.Errorf("reconstruction predicts the %s rows differently (%s)", name, firstDifference(want, got)))
	}
	sc, ok := m.(learn.Scorer)
	if !ok {
		return errs
	}
	rs, ok := rebuilt.(learn.Scorer)
	if !ok {
		return append(errs, fmt.Errorf("the model scores, its reconstruction does not"))
	}
	scores := sc.Scores(X)
	if err := CheckScores(scores, want, nClasses); err != nil {
		errs = append(errs, fmt.Errorf("scores on the %s rows: %v", name, err))
	}
	if again := rs.Scores(X); !sameBits(again, scores) {
		errs = append(errs, fmt.Errorf("reconstruction scores the %s rows differently", name))
	}
	return errs
}

// CheckScores checks the shape of scores (one row per prediction, one
// column per class) and that the prediction is the class whose score
// exceeds every other's by more than learn.ScoreTieMargin, wherever there
// is one and the prediction is not -1.
func CheckScores(scores [][]float64, pred []int, nClasses int) error {
	if len(scores) != len(pred) {
		return fmt.Errorf("%d score rows for %d predictions", len(scores), len(pred))
	}
	for i, row := range scores {
		if len(row) != nClasses {
			return fmt.Errorf("row %d has %d scores for %d classes", i, len(row), nClasses)
		}
		if pred[i] < 0 {
			continue
		}
		if top := uniqueMax(row); top >= 0 && top != pred[i] {
			return fmt.Errorf("row %d: scores %v single out class %d, the model predicts %d", i, row, top, pred[i])
		}
	}
	return nil
}

// uniqueMax returns the class whose score exceeds all others by more than
// the tie margin, or -1 (NaN scores never single a class out).
func uniqueMax(row []float64) int {
	top := -1
	for k, v := range row {
		if math.IsNaN(v) {
			return -1
		}
		if top < 0 || v > row[top] {
			top = k
		}
	}
	for k, v := range row {
		if k != top && !(row[top]-v > learn.ScoreTieMargin) {
			return -1
		}
	}
	return top
}

// sameBits compares two score matrices bit for bit (NaN equals NaN).
func sameBits(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for k := range a[i] {
			if math.Float64bits(a[i][k]) != math.Float64bits(b[i][k]) {
				return false
			}
		}
	}
	return true
}
