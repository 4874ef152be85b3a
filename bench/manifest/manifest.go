// Package manifest records how a run was made: software versions, the
// exact datasets (checksums), the study, seeds and the machine, so that a
// reader can re-derive every number in its results.
package manifest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
)

// FileName is the manifest's name inside an output directory.
const FileName = "manifest.json"

// Dataset identifies one dataset file used by a run.
type Dataset struct {
	Name             string `json:"name"`
	Path             string `json:"path"`
	NormalizedSHA256 string `json:"normalized_sha256"`
	Rows             int    `json:"rows"`
}

// Manifest describes one run.
type Manifest struct {
	Tool        string    `json:"tool"`
	Module      string    `json:"module"`
	Version     string    `json:"version"`
	VCSRevision string    `json:"vcs_revision,omitempty"`
	VCSModified bool      `json:"vcs_modified,omitempty"`
	GoVersion   string    `json:"go_version"`
	GOOS        string    `json:"goos"`
	GOARCH      string    `json:"goarch"`
	NumCPU      int       `json:"num_cpu"`
	Jobs        int       `json:"jobs"`
	Shard       string    `json:"shard"`
	Command     []string  `json:"command"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end,omitempty"`
	Datasets    []Dataset `json:"datasets"`
	Study       any       `json:"study"`
	Units       int       `json:"units"`
	Ran         int       `json:"units_ran"`
	Skipped     int       `json:"units_resumed"`
	Failed      int       `json:"units_failed"`
	Errors      []string  `json:"errors,omitempty"`
}

// New fills the build and machine facts.
func New(study any, jobs int, shard string) *Manifest {
	m := &Manifest{
		Tool: "fgrtbench", GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), Jobs: jobs, Shard: shard, Command: os.Args, Start: time.Now().UTC(), Study: study,
	}
	m.Module, m.Version, m.VCSRevision, m.VCSModified = BuildInfo()
	return m
}

// BuildInfo returns the module path, version and VCS revision of the
// running binary. When the binary carries no VCS stamp (go run, go test),
// it asks git in the working directory.
func BuildInfo() (module, version, revision string, modified bool) {
	module, version = "github.com/fgrtbench/fgrtbench", "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if revision == "" {
		if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			revision = strings.TrimSpace(string(out))
			if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil {
				modified = len(strings.TrimSpace(string(st))) > 0
			}
		}
	}
	return
}

// Write stores the manifest in dir atomically.
func (m *Manifest) Write(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	return atomicfile.WriteFile(filepath.Join(dir, FileName), data)
}

// Read loads a manifest from dir.
func Read(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
