package sidebyside

import (
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	cases := []struct {
		name     string
		env, out []string
	}{
		{"none to drop", []string{"A=1", "FGRT_DATA_MIRROR=/m"}, []string{"A=1", "FGRT_DATA_MIRROR=/m"}},
		{"both dropped, order kept", []string{"FGRTBENCH_CPUPROFILE=/p", "A=1", "FGRTBENCH_UNIT_TIMES=/t", "B=2"}, []string{"A=1", "B=2"}},
		{"a name that only starts like one is kept", []string{"FGRTBENCH_CPUPROFILE_X=1", "FGRTBENCH_UNIT_TIMESX=2"}, []string{"FGRTBENCH_CPUPROFILE_X=1", "FGRTBENCH_UNIT_TIMESX=2"}},
		{"empty value dropped too", []string{"FGRTBENCH_UNIT_TIMES="}, []string{}},
	}
	for _, c := range cases {
		if got := childEnv(c.env); !slices.Equal(got, c.out) {
			t.Errorf("%s: %q, want %q", c.name, got, c.out)
		}
	}
	t.Setenv("FGRTBENCH_UNIT_TIMES", "/somewhere")
	if slices.Contains(childEnv(nil), "FGRTBENCH_UNIT_TIMES=/somewhere") {
		t.Error("this process's environment: FGRTBENCH_UNIT_TIMES passed on")
	}
}
