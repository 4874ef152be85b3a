package gate

import (
	"strings"
	"testing"
)

// TestCompareRecords: each kind of difference is named and classified, the
// exit status is the lowest kind found, and one line says everything.
func TestCompareRecords(t *testing.T) {
	base := Record{
		Data:     map[string]string{"mine.csv": "content:aaaa", "wine": "010d7f91"},
		Learners: map[string]Learner{"cart": {"cart", 1}, "fgrt": {"fgrt", 2}},
		Spec:     "1111",
	}
	with := func(edit func(*Record)) Record {
		r := Record{Data: map[string]string{}, Learners: map[string]Learner{}, Spec: base.Spec}
		for k, v := range base.Data {
			r.Data[k] = v
		}
		for k, v := range base.Learners {
			r.Learners[k] = v
		}
		edit(&r)
		return r
	}
	cases := []struct {
		name  string
		cur   Record
		kinds []Kind
		code  int
		says  []string
	}{
		{"same", with(func(*Record) {}), nil, 0, nil},
		{"data", with(func(r *Record) { r.Data["mine.csv"] = "content:bbbb" }), []Kind{DataChanged}, 3,
			[]string{"data changed: dataset mine.csv: content:aaaa in the baseline, content:bbbb now"}},
		{"learner", with(func(r *Record) { r.Learners["fgrt"] = Learner{"fgrt", 3} }), []Kind{LearnerChanged}, 4,
			[]string{"learner changed: fgrt (fgrt) version 2 in the baseline, 3 now"}},
		{"study", with(func(r *Record) { r.Spec = "2222" }), []Kind{StudyChanged}, 5,
			[]string{"study changed: canonical study 1111 in the baseline, 2222 now"}},
		{"all three", with(func(r *Record) { r.Spec = "2222"; r.Data["wine"] = "x"; r.Learners["cart"] = Learner{"cart", 9} }),
			[]Kind{DataChanged, LearnerChanged, StudyChanged}, 3, []string{"data changed: dataset wine", "; learner changed: cart", "; study changed: "}},
		{"an earlier version's file checksum", with(func(r *Record) { r.Data["mine.csv"] = "3d50849c9e07" }), []Kind{DataChanged}, 3,
			[]string{"content:aaaa in the baseline, 3d50849c9e07 (a file checksum of an earlier fgrtbench: re-run the study with this one) now"}},
		{"a dataset the record lacks", with(func(r *Record) { r.Data["zoo"] = "ee92" }), []Kind{StudyChanged}, 5,
			[]string{"study changed: dataset zoo is in the checked study, not in the baseline's record"}},
		{"a label the study lacks", with(func(r *Record) { delete(r.Learners, "cart") }), []Kind{StudyChanged}, 5,
			[]string{"method label cart is in the baseline's record, not in the checked study"}},
		{"a label of another method", with(func(r *Record) { r.Learners["cart"] = Learner{"c45", 1} }), []Kind{StudyChanged}, 5,
			[]string{"method label cart is cart in the baseline, c45 now"}},
		{"data not compared", with(func(r *Record) { r.Data = nil }), nil, 0, nil},
		{"study not compared", with(func(r *Record) { r.Spec = "" }), nil, 0, nil},
	}
	for _, c := range cases {
		changes := CompareRecords(base, c.cur)
		if len(changes) != len(c.kinds) {
			t.Errorf("%s: %+v, want kinds %v", c.name, changes, c.kinds)
			continue
		}
		for i, k := range c.kinds {
			if changes[i].Kind != k {
				t.Errorf("%s: change %d is %s, want %s", c.name, i, changes[i].Kind, k)
			}
		}
		if len(changes) == 0 {
			continue
		}
		err := &ChangedError{Changes: changes}
		if err.ExitCode() != c.code || strings.Contains(err.Error(), "\n") || !strings.HasSuffix(err.Error(), "accept the change deliberately with --update") {
			t.Errorf("%s: exit %d, %q", c.name, err.ExitCode(), err.Error())
		}
		for _, s := range c.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", c.name, err.Error(), s)
			}
		}
	}
}
