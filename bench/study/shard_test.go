package study

import (
	"strings"
	"testing"
)

// TestShardFromEnv pins how a task of a Slurm job array or a Kubernetes
// Indexed Job finds its shard: the index is the scheduler's, the count is
// always the caller's, whatever the array's shape.
func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		count   int
		want    Shard
		ok      bool
		wantErr string
	}{
		{name: "no scheduler", ok: false},
		{name: "slurm array 0-3", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"},
			count: 4, want: Shard{3, 4}, ok: true},
		// sbatch --array=2 to redo one task: Slurm says count 1, min=max=2.
		{name: "slurm index resubmitted alone", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2"},
			count: 4, want: Shard{2, 4}, ok: true},
		{name: "slurm index resubmitted alone without count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"},
			wantErr: "pass --shard-count"},
		// sbatch --array=0-6:2: tasks 0,2,4,6, count 4, step 2.
		{name: "slurm stepped array", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_STEP": "2"},
			count: 7, want: Shard{4, 7}, ok: true},
		{name: "slurm array not starting at 0", env: map[string]string{"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "13"},
			count: 4, wantErr: "SLURM_ARRAY_TASK_ID=11 is outside the shards 0..3"},
		{name: "slurm index out of range", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4"}, count: 4, wantErr: "outside the shards 0..3"},
		{name: "slurm index not a number", env: map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, count: 4, wantErr: "not an integer"},
		{name: "slurm missing count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "8"}, wantErr: "pass --shard-count"},
		{name: "kubernetes", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, count: 3, want: Shard{2, 3}, ok: true},
		{name: "kubernetes missing count", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, wantErr: "pass --shard-count"},
		{name: "kubernetes out of range", env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, count: 3, wantErr: "outside the shards 0..2"},
		{name: "both schedulers agree", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "1"}, count: 2, want: Shard{1, 2}, ok: true},
		{name: "both schedulers disagree", env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "0"}, count: 2, wantErr: "pass --shard i/N"},
		{name: "count without an index", count: 4, wantErr: "pass --shard i/4"},
		{name: "negative count", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0"}, count: -1, wantErr: "positive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ok, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.count)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %v, %v, err %v; want an error containing %q", s, ok, err, c.wantErr)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				return
			}
			if err != nil || ok != c.ok || s != c.want {
				t.Fatalf("got %v, %v, %v; want %v, %v", s, ok, err, c.want, c.ok)
			}
		})
	}
}

func TestShardParsing(t *testing.T) {
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Fatalf("%v %v", s, err)
	}
	if s, err := ParseShard("0/1"); err != nil || !s.All() {
		t.Fatalf("0/1: %v %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "a/b", "3", "0/0", "1/-2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}
