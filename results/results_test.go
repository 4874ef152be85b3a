package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sample() []Record {
	return []Record{
		{Protocol: "paper", Dataset: "wine", Method: "fgrt", Config: "max_rules=5;min_improvement=0.01", ConfigIndex: 0, Selected: true, Selection: "test",
			Fold: 2, Seed: 42, NTrain: 142, NTest: 36, Correct: 35, Accuracy: 35.0 / 36, BalancedAccuracy: 0.9761904761904762,
			Rules: 5, Antecedents: 5, RulebaseSize: 5, Leaves: 5, InternalNodes: 1, FitSeconds: 0.0123456, PredictSeconds: 1e-5, Key: "paper/wine/fgrt#x/r0/f2/s42"},
		{Protocol: "clean", Dataset: "zoo, with comma", Method: "cart@text", Config: "", ConfigIndex: 2, Selection: "inner-cv", Repeat: 1, Fold: 0, Seed: 43,
			NTest: 1, Key: "k"},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	got, truncated, err := Read(&b)
	if err != nil || truncated {
		t.Fatalf("read: %v %v", err, truncated)
	}
	want := sample()
	// Timing columns are written with microsecond precision.
	want[0].FitSeconds, want[0].PredictSeconds = 0.012346, 0.00001
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("round trip:\n%+v\n%+v", got, want)
	}
	if got[0].MeanAntecedents() != 1 || (Record{}).MeanAntecedents() != 0 {
		t.Fatal("mean antecedents")
	}
}

// TestReadRefusesAnAccuracyThatIsNotCorrectOverNTest: every accuracy
// re-derives as correct / n_test, so a row that says otherwise was edited
// or corrupted and is an error naming its line, not a number in a report.
func TestReadRefusesAnAccuracyThatIsNotCorrectOverNTest(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Record)
		want string
	}{
		{"accuracy edited", func(r *Record) { r.Accuracy = 0.99 }, "line 2: results: accuracy 0.99 is not correct / n_test = 35/36"},
		{"correct edited", func(r *Record) { r.Correct = 34 }, "accuracy 0.9722222222222222 is not correct / n_test = 34/36"},
		{"more correct than tested", func(r *Record) { r.Correct, r.Accuracy = 157, 157.0/36 }, "correct 157 of n_test 36 is impossible"},
		{"accuracy on an empty test fold", func(r *Record) { r.NTest, r.Correct, r.Accuracy = 0, 0, 0.99 }, "correct 0 of n_test 0 is impossible"},
	}
	for _, c := range cases {
		recs := sample()
		c.edit(&recs[0])
		var b bytes.Buffer
		if err := Write(&b, recs); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Read(&b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestReadDropsTornTail(t *testing.T) {
	var b bytes.Buffer
	Write(&b, sample())
	full := b.String()
	cut := full[:len(full)-7]
	got, truncated, err := Read(strings.NewReader(cut))
	if err != nil || !truncated || len(got) != 1 {
		t.Fatalf("torn tail: %d rows, truncated %v, %v", len(got), truncated, err)
	}
}

func TestReadErrors(t *testing.T) {
	if _, _, err := Read(strings.NewReader("a,b\n1,2\n")); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("bad header: %v", err)
	}
	var b bytes.Buffer
	Write(&b, sample()[:1])
	bad := strings.Replace(b.String(), ",35,", ",x,", 1)
	if _, _, err := Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad field: %v", err)
	}
	if _, err := Parse([]string{"too", "few"}); err == nil {
		t.Fatal("short row accepted")
	}
}

func TestSortIsCanonical(t *testing.T) {
	recs := sample()
	recs = append(recs, Record{Protocol: "clean", Dataset: "zoo, with comma", Method: "cart@text", ConfigIndex: 0, Repeat: 1, Key: "k"})
	Sort(recs)
	if recs[0].Protocol != "clean" || recs[0].ConfigIndex != 0 || recs[1].ConfigIndex != 2 || recs[2].Protocol != "paper" {
		t.Fatalf("order: %+v", recs)
	}
}

// TestReadDropsATornQuotedField: a write cut inside a quoted field that
// holds a newline is a torn last row (dropped, resume redoes the unit),
// while a stray quote in the middle of the file stays an error.
func TestReadDropsATornQuotedField(t *testing.T) {
	recs := sample()
	recs[1].Config = "note=first line\nsecond line"
	var b bytes.Buffer
	Write(&b, recs)
	full := b.String()
	at := strings.Index(full, "first line\n") + len("first line\n")
	for _, cut := range []int{at - 3, at, at + 3} {
		got, truncated, err := Read(strings.NewReader(full[:cut]))
		if err != nil || !truncated || len(got) != 1 {
			t.Errorf("cut at %d: %d rows, truncated %v, %v", cut, len(got), truncated, err)
		}
	}
	// A stray quote followed by whole rows is not a torn end.
	stray := strings.Replace(full, "paper,wine,", "paper,\"wine,", 1)
	if _, _, err := Read(strings.NewReader(stray)); err == nil {
		t.Error("a stray quote mid-file was read as a torn row")
	}
}

func TestReadStrayQuoteBeforeOneLastRow(t *testing.T) {
	var b bytes.Buffer
	Write(&b, sample())
	lines := strings.SplitAfter(b.String(), "\n")
	// A quote opened in the first row, with one more row after it: the
	// two rows read as one would have too many fields.
	stray := lines[0] + strings.Replace(lines[1], "paper,wine,", "paper,\"wine,", 1) + lines[2]
	if _, _, err := Read(strings.NewReader(stray)); err == nil {
		t.Error("a stray quote before the last row was read as a torn row")
	}
}

// TestStoredNumbersAreRangeChecked is item 7 of issue 30: every number
// read from results.csv is held to the range a run writes (rates in
// [0, 1], times finite and >= 0, counts non-negative integers); a cell
// outside it is refused with the file, line and column.
func TestStoredNumbersAreRangeChecked(t *testing.T) {
	cases := []struct {
		column, value, want string
	}{
		{"balanced_accuracy", "1.7", "2:15: balanced_accuracy 1.7 is not a rate in [0, 1]"},
		{"balanced_accuracy", "-3", "2:15: balanced_accuracy -3 is not a rate in [0, 1]"},
		{"balanced_accuracy", "NaN", "2:15: balanced_accuracy NaN is not a rate in [0, 1]"},
		{"fit_seconds", "-0.5", "2:21: fit_seconds -0.5 is not a time >= 0"},
		{"fit_seconds", "+Inf", "2:21: fit_seconds +Inf is not a time >= 0"},
		{"predict_seconds", "NaN", "2:22: predict_seconds NaN is not a time >= 0"},
		{"leaves", "-1", "2:19: leaves -1 is negative"},
		{"leaves", "5.5", `2:19: leaves "5.5" is not an integer`},
		{"rules", "-2", "2:16: rules -2 is negative"},
		{"antecedents", "-1", "2:17: antecedents -1 is negative"},
		{"rulebase_size", "-1", "2:18: rulebase_size -1 is negative"},
		{"internal_nodes", "-4", "2:20: internal_nodes -4 is negative"},
		{"n_train", "-142", "2:11: n_train -142 is negative"},
		{"config_index", "-1", "2:5: config_index -1 is negative"},
		{"repeat", "-1", "2:8: repeat -1 is negative"},
		{"fold", "-2", "2:9: fold -2 is negative"},
		{"accuracy", "x", `2:14: accuracy "x" is not a number`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		var b bytes.Buffer
		if err := Write(&b, sample()); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(b.String(), "\n")
		fields := strings.Split(strings.TrimSuffix(lines[1], "\n"), ",")
		col := column(c.column)
		if col == 0 {
			t.Fatalf("no column %s", c.column)
		}
		fields[col-1] = c.value
		lines[1] = strings.Join(fields, ",") + "\n"
		path := filepath.Join(dir, "results.csv")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+":"+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s = %s: got %v, want %s:%s", c.column, c.value, err, path, c.want)
		}
	}
	// The sample itself is within range.
	var b bytes.Buffer
	Write(&b, sample())
	if _, _, err := Read(&b); err != nil {
		t.Fatal(err)
	}
}

// TestKeysAgreeWithTheirColumns is item 5 of issue 40: a row's key names
// the protocol, dataset, method label, repeat, fold and seed of the unit
// that wrote it, and a cell edited apart from its key (fold 2 made 7) is
// refused at that cell, with the file, line and column; so is a key
// edited apart from its row.
func TestKeysAgreeWithTheirColumns(t *testing.T) {
	cases := []struct {
		column, value, want string
	}{
		{"fold", "7", "2:9: fold 7 disagrees with the row's key paper/wine/fgrt#x/r0/f2/s42, which says fold 2"},
		{"repeat", "1", "2:8: repeat 1 disagrees with the row's key paper/wine/fgrt#x/r0/f2/s42, which says repeat 0"},
		{"seed", "7", "2:10: seed 7 disagrees with the row's key paper/wine/fgrt#x/r0/f2/s42, which says seed 42"},
		{"protocol", "clean", `2:1: protocol "clean" disagrees with the row's key`},
		{"dataset", "iris", `2:2: dataset "iris" disagrees with the row's key`},
		{"dataset", "win", `2:2: dataset "win" disagrees with the row's key`},
		{"method", "cart", `2:3: method "cart" disagrees with the row's key`},
		{"key", "paper/wine/fgrt#x/r0/f7/s42", "2:9: fold 2 disagrees with the row's key paper/wine/fgrt#x/r0/f7/s42, which says fold 7"},
		{"key", "paper/wine/fgrt#x/r0/f2/s42/extra", `2:23: key "paper/wine/fgrt#x/r0/f2/s42/extra" is not a unit key`},
		{"key", "paper/wine/fgrt#x/r0/x2/s42", `2:23: key "paper/wine/fgrt#x/r0/x2/s42" is not a unit key`},
		{"key", "paper/wine/fgrt#/r0/f2/s42", `2:23: key "paper/wine/fgrt#/r0/f2/s42" is not a unit key`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		var b bytes.Buffer
		if err := Write(&b, sample()); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(b.String(), "\n")
		fields := strings.Split(strings.TrimSuffix(lines[1], "\n"), ",")
		fields[column(c.column)-1] = c.value
		lines[1] = strings.Join(fields, ",") + "\n"
		path := filepath.Join(dir, "results.csv")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+":"+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s = %s: got %v, want %s:%s", c.column, c.value, err, path, c.want)
		}
	}
	if got := UnitKey("paper", "wine", "fgrt", "x", 0, 2, 42); got != sample()[0].Key {
		t.Errorf("UnitKey = %q, want %q", got, sample()[0].Key)
	}
}
