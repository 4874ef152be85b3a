package study

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/results"
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

// ParseShard parses "i/N" with 0 <= i < N ("0/1" is the whole study).
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/N with 0 <= i < N (e.g. 0/4)", v)
	}
	return Shard{Index: i, Count: n}, nil
}

// indexVars are the variables through which batch schedulers hand a task
// its index: Slurm job arrays and Kubernetes Indexed Jobs.
var indexVars = []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}

// ShardFromEnv forms the shard of a batch-scheduler task: the index is
// SLURM_ARRAY_TASK_ID (Slurm job array) or JOB_COMPLETION_INDEX (Kubernetes
// Indexed Job) as it stands, and the count is the caller's (--shard-count).
//
// The count is never inferred. Neither scheduler exposes one that is stable:
// a Slurm index resubmitted alone (--array=2) sees SLURM_ARRAY_TASK_COUNT=1,
// a stepped array (--array=0-6:2) has fewer tasks than shards, and a pod does
// not see its Job's completions. Inferring it would silently run the wrong
// slice, so a task index without a count is an error, and so is a count
// without a task index. It returns ok=false when neither is set.
func ShardFromEnv(getenv func(string) string, count int) (Shard, bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if count < 0 {
		return Shard{}, false, fmt.Errorf("--shard-count %d: want a positive number of shards", count)
	}
	name, id := "", ""
	for _, v := range indexVars {
		if x := getenv(v); x != "" {
			if name != "" && x != id {
				return Shard{}, false, fmt.Errorf("both %s=%s and %s=%s are set; pass --shard i/N to say which shard this is", name, id, v, x)
			}
			if name == "" {
				name, id = v, x
			}
		}
	}
	if name == "" {
		if count > 0 {
			return Shard{}, false, fmt.Errorf("--shard-count %d but neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; outside a job array pass --shard i/%d", count, count)
		}
		return Shard{}, false, nil
	}
	i, err := strconv.Atoi(id)
	if err != nil {
		return Shard{}, false, fmt.Errorf("%s=%q is not an integer", name, id)
	}
	if count == 0 {
		return Shard{}, false, fmt.Errorf("%s=%d is set but the number of shards is not: pass --shard-count N (the same N in every task and resubmit; the index is %s itself), or --shard 0/1 to run the whole study", name, i, name)
	}
	if i < 0 || i >= count {
		return Shard{}, false, fmt.Errorf("%s=%d is outside the shards 0..%d of --shard-count %d", name, i, count-1, count)
	}
	return Shard{Index: i, Count: count}, true, nil
}

// MissingUnits lists the units of the study that have no row in recs: what a
// shard, a partial merge or failed units leave out. It matches units by
// their coordinates (protocol, dataset, method label, repeat, fold, seed);
// whether rows belong to this study at all is the identity's question
// (CheckDir, merge).
func MissingUnits(s Study, recs []results.Record) ([]Unit, error) {
	units, err := UnitsOf(s)
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(recs))
	for _, r := range recs {
		have[Coordinates(r.Protocol, r.Dataset, r.Method, r.Repeat, r.Fold, r.Seed)] = true
	}
	var missing []Unit
	for _, u := range units {
		if !have[u.String()] {
			missing = append(missing, u)
		}
	}
	return missing, nil
}

// String names the unit by its coordinates, protocol/dataset/label/rR/fF/sS.
func (u Unit) String() string {
	return Coordinates(u.Protocol, u.Dataset, u.Label, u.Repeat, u.Fold, u.Seed)
}

// Coordinates names a unit by protocol/dataset/label/rR/fF/sS.
func Coordinates(protocol, dataset, label string, repeat, fold int, seed int64) string {
	return fmt.Sprintf("%s/%s/%s/r%d/f%d/s%d", protocol, dataset, label, repeat, fold, seed)
}

// SameSplit refuses to run shard s into a directory that ran a shard of
// another shard count: its units would belong to two splits, which no merge
// can add up (a job array resubmitted with another --shard-count).
func SameSplit(dir string, prev *manifest.Manifest, s Shard) error {
	if prev == nil || s.All() {
		return nil
	}
	shards := []string{prev.Shard}
	for _, h := range prev.History {
		shards = append(shards, h.Shard)
	}
	for _, v := range shards {
		if old, err := ParseShard(v); err == nil && !old.All() && old.Count != s.Count {
			return fmt.Errorf("%s holds shard %s of this study; this run is shard %s: a shard's directory keeps its shard count (run it with --shard-count %d, or use a new --out)",
				dir, old, s, old.Count)
		}
	}
	return nil
}
