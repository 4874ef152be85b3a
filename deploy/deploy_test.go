// Package deploy holds the container, Slurm and Kubernetes recipes; this
// test keeps them consistent with each other and with the CLI they call,
// since no cluster runs them in `go test` (deploy/slurm/e2e.sh does).
package deploy

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/fgrtbench/fgrtbench/cmd/fgrtbench/cli"
	"github.com/fgrtbench/fgrtbench/internal/command"
)

type container struct {
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Env   []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"env"`
}

type job struct {
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				SecurityContext struct {
					RunAsNonRoot bool `yaml:"runAsNonRoot"`
				} `yaml:"securityContext"`
				InitContainers []container `yaml:"initContainers"`
				Containers     []container `yaml:"containers"`
				Volumes        []struct {
					PVC *struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkArgs fails when args name a command or flag the CLI lacks: it looks
// each flag up in the command's own flag set, the one its help lists.
func checkArgs(t *testing.T, where string, args []string) {
	t.Helper()
	var cmd *command.Command
	for _, c := range cli.Commands() {
		if c.Name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		t.Errorf("%s: fgrtbench has no command %s", where, args[0])
		return
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if cmd.Flag.Lookup(name) == nil {
			t.Errorf("%s: fgrtbench %s has no flag %s", where, args[0], a)
		}
	}
}

func TestKubernetesJobsAgree(t *testing.T) {
	var shards, merge job
	readYAML(t, "k8s/shards-job.yaml", &shards)
	readYAML(t, "k8s/merge-job.yaml", &merge)
	s := shards.Spec
	if s.CompletionMode != "Indexed" || s.Completions < 1 || s.Parallelism < 1 || s.Parallelism > s.Completions {
		t.Fatalf("shards job: mode %q, completions %d, parallelism %d", s.CompletionMode, s.Completions, s.Parallelism)
	}
	c := s.Template.Spec.Containers[0]
	checkArgs(t, "shards-job.yaml", c.Args)
	shardCount := ""
	for _, e := range c.Env {
		if e.Name == "SHARDS" {
			shardCount = e.Value
		}
	}
	if shardCount != fmt.Sprint(s.Completions) || !slices.Contains(c.Args, "$(SHARDS)") || !slices.Contains(c.Args, "--shard-count") {
		t.Errorf("shards job: SHARDS=%q and --shard-count must equal completions %d", shardCount, s.Completions)
	}
	if !slices.Contains(c.Args, "/results/shards/$(JOB_COMPLETION_INDEX)") {
		t.Errorf("shards job: each index needs its own output directory: %v", c.Args)
	}
	m := merge.Spec.Template.Spec
	mergeArgs := m.InitContainers[0].Args
	checkArgs(t, "merge-job.yaml", mergeArgs)
	checkArgs(t, "merge-job.yaml", m.Containers[0].Args)
	var want []string
	for i := 0; i < s.Completions; i++ {
		want = append(want, fmt.Sprintf("/results/shards/%d", i))
	}
	var got []string
	for _, a := range mergeArgs {
		if strings.HasPrefix(a, "/results/shards/") {
			got = append(got, a)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("merge job inputs %v, want every shard %v", mergeArgs, want)
	}
	for _, img := range []string{m.InitContainers[0].Image, m.Containers[0].Image} {
		if img != c.Image {
			t.Errorf("merge job image %s, shards image %s", img, c.Image)
		}
	}
	if !s.Template.Spec.SecurityContext.RunAsNonRoot || !m.SecurityContext.RunAsNonRoot {
		t.Error("pods must run as non-root")
	}

	// The results volume is shared by pods on any node: ReadWriteMany.
	data, err := os.ReadFile("k8s/volumes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string][]string{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var pvc struct {
			Metadata struct{ Name string } `yaml:"metadata"`
			Spec     struct {
				AccessModes []string `yaml:"accessModes"`
			} `yaml:"spec"`
		}
		if dec.Decode(&pvc) != nil {
			break
		}
		modes[pvc.Metadata.Name] = pvc.Spec.AccessModes
	}
	if !slices.Equal(modes["fgrtbench-results"], []string{"ReadWriteMany"}) {
		t.Errorf("fgrtbench-results access modes %v, want [ReadWriteMany]", modes["fgrtbench-results"])
	}
	for _, j := range []job{shards, merge} {
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.PVC != nil && modes[v.PVC.ClaimName] == nil {
				t.Errorf("claim %s is not in volumes.yaml", v.PVC.ClaimName)
			}
		}
	}
}

// TestContainerRecipe: the image's binary is static, stamped through the
// linker variables bench/manifest reads, and runs as non-root on scratch.
func TestContainerRecipe(t *testing.T) {
	df, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	build, err := os.ReadFile("build.sh")
	if err != nil {
		t.Fatal(err)
	}
	man, err := os.ReadFile("../bench/manifest/manifest.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"deploy/build.sh", "\nFROM scratch\n", "\nUSER 65532:65532\n", "FGRT_DATA_MIRROR=/data", "WORKDIR /results"} {
		if !strings.Contains(string(df), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	if !strings.Contains(string(build), "CGO_ENABLED=0") {
		t.Error("build.sh does not build a static binary")
	}
	for _, v := range regexp.MustCompile(`manifest\.(\w+)=`).FindAllStringSubmatch(string(build), -1) {
		if !regexp.MustCompile(`\bvar .*\b` + v[1] + `\b`).Match(man) {
			t.Errorf("build.sh sets manifest.%s, which bench/manifest does not declare", v[1])
		}
	}
}

// TestSlurmScripts: the scripts parse, and the flags they pass exist.
func TestSlurmScripts(t *testing.T) {
	scripts, _ := filepath.Glob("*/*.sh")
	more, _ := filepath.Glob("*.sh")
	for _, s := range append(scripts, more...) {
		if out, err := exec.Command("bash", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v %s", s, err, out)
		}
	}
	data, err := os.ReadFile("slurm/array.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `--shard-count "$shards"`) || !strings.Contains(string(data), `shards/$SLURM_ARRAY_TASK_ID`) {
		t.Error("array.sh must pass --shard-count and give each index its own directory")
	}
	checkArgs(t, "array.sh", []string{"run", "--spec", "--shard-count", "--out", "-j"})
}
