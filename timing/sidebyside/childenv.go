package sidebyside

import (
	"os"
	"strings"
)

// OneProcessEnv are the environment variables that name a new file for
// one fgrtbench process: its CPU profile (FGRTBENCH_CPUPROFILE) and its
// run's schedule (FGRTBENCH_UNIT_TIMES). The processes speed starts run
// without them. Otherwise the first child would write the file (or speed
// itself, profiled, would have) and every later one refuse it, failing the
// measurement. cmd/fgrtbench's TestSpeedChildrenDropOneProcessFiles holds
// this list to the commands' own names.
var OneProcessEnv = []string{"FGRTBENCH_CPUPROFILE", "FGRTBENCH_UNIT_TIMES"}

// childEnv is env, or this process's environment when env is nil, without
// OneProcessEnv.
func childEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	kept := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, v := range OneProcessEnv {
			drop = drop || name == v
		}
		if !drop {
			kept = append(kept, kv)
		}
	}
	return kept
}
