package runner

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Shard selects a deterministic slice of a study's units: unit number u (in
// canonical order) belongs to shard u mod Count. The zero value means "all".
type Shard struct {
	Index, Count int
}

// All reports whether the shard covers every unit.
func (s Shard) All() bool { return s.Count <= 1 }

// Contains reports whether unit number u belongs to the shard.
func (s Shard) Contains(u int) bool { return s.All() || u%s.Count == s.Index }

func (s Shard) String() string {
	if s.All() {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShard parses "i/N" with 0 <= i < N.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/N with 0 <= i < N (e.g. 0/4)", v)
	}
	return Shard{Index: i, Count: n}, nil
}

// ShardFromEnv detects a shard from a batch scheduler's environment:
// Slurm job arrays (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or
// SLURM_ARRAY_TASK_MIN/MAX when the count is absent) and Kubernetes Indexed
// Jobs (JOB_COMPLETION_INDEX, with the count given by k8sCount because the
// pod does not see the Job's completions). It returns ok=false when no
// scheduler variables are set.
func ShardFromEnv(getenv func(string) string, k8sCount int) (Shard, bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		i, err := strconv.Atoi(id)
		if err != nil {
			return Shard{}, false, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q is not an integer", id)
		}
		n := 0
		if c := getenv("SLURM_ARRAY_TASK_COUNT"); c != "" {
			if n, err = strconv.Atoi(c); err != nil {
				return Shard{}, false, fmt.Errorf("SLURM_ARRAY_TASK_COUNT=%q is not an integer", c)
			}
		}
		if lo, hi := getenv("SLURM_ARRAY_TASK_MIN"), getenv("SLURM_ARRAY_TASK_MAX"); lo != "" && hi != "" {
			l, e1 := strconv.Atoi(lo)
			h, e2 := strconv.Atoi(hi)
			if e1 == nil && e2 == nil {
				i -= l
				if n == 0 {
					n = h - l + 1
				}
			}
		}
		if n < 1 || i < 0 || i >= n {
			return Shard{}, false, fmt.Errorf("slurm array task %s of %d: cannot form a shard; set --shard explicitly", id, n)
		}
		return Shard{Index: i, Count: n}, true, nil
	}
	if id := getenv("JOB_COMPLETION_INDEX"); id != "" {
		i, err := strconv.Atoi(id)
		if err != nil {
			return Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX=%q is not an integer", id)
		}
		if k8sCount < 1 {
			return Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX is set but the shard count is not: pass --shard-count (the Job's completions)")
		}
		if i < 0 || i >= k8sCount {
			return Shard{}, false, fmt.Errorf("JOB_COMPLETION_INDEX=%d is outside 0..%d", i, k8sCount-1)
		}
		return Shard{Index: i, Count: k8sCount}, true, nil
	}
	return Shard{}, false, nil
}
