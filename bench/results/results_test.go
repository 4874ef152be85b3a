package results

import (
	"bytes"
	"strings"
	"testing"
)

func sample() []Record {
	return []Record{
		{Protocol: "paper", Dataset: "wine", Method: "fgrt", Config: "max_rules=5;min_improvement=0.01", ConfigIndex: 0, Selected: true, Selection: "test",
			Fold: 2, Seed: 42, NTrain: 142, NTest: 36, Correct: 35, Accuracy: 35.0 / 36, BalancedAccuracy: 0.9761904761904762,
			Rules: 5, Antecedents: 5, RulebaseSize: 5, Leaves: 5, InternalNodes: 1, FitSeconds: 0.0123456, PredictSeconds: 1e-5, Key: "paper/wine/fgrt#x/r0/f2/s42"},
		{Protocol: "clean", Dataset: "zoo, with comma", Method: "cart@text", Config: "", ConfigIndex: 2, Selection: "inner-cv", Repeat: 1, Fold: 0, Seed: 43, Key: "k"},
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
