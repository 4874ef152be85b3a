// Package manifest records how the results in an output directory were
// made: software versions, the exact datasets (checksums), the study and its
// identity (every unit key the directory may hold), seeds, the machine, and
// a history of every invocation that wrote the directory, so that a reader
// can re-derive every number in its results.
//
// The top-level run fields (command, start, end, counts) describe the latest
// invocation; History lists them all, oldest first. A manifest survives any
// resume with everything it had.
package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/foreign"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
)

// FileName is the manifest's name inside an output directory.
const FileName = "manifest.json"

// Dataset identifies one dataset file used by a run and says how the
// study used its rows.
type Dataset struct {
	Name             string `json:"name"`
	Path             string `json:"path"`
	NormalizedSHA256 string `json:"normalized_sha256"`
	// Rows is the number of data rows in the file.
	Rows int `json:"rows"`
	// Classes and ClassCounts give the class balance (rows per class, in
	// the dataset's class order) of the file's rows; absent in manifests
	// written before.
	Classes     []string `json:"classes,omitempty"`
	ClassCounts []int    `json:"class_counts,omitempty"`
	// Features and NominalFeatures count the input columns and the nominal
	// ones; MissingRows the rows with at least one missing input, and
	// Missing the missing cells of each input column that has any (in
	// column order). Absent in manifests written before they existed.
	Features        int             `json:"features,omitempty"`
	NominalFeatures int             `json:"nominal_features,omitempty"`
	MissingRows     int             `json:"missing_rows,omitempty"`
	Missing         []ColumnMissing `json:"missing_by_column,omitempty"`
	// Use says, per protocol of the study (in study order), which rows
	// were used.
	Use []DatasetUse `json:"use,omitempty"`
}

// ColumnMissing is the number of missing cells of one input column.
type ColumnMissing struct {
	Column string `json:"column"`
	Cells  int    `json:"cells"`
}

// DatasetUse is how one protocol used a dataset's rows.
type DatasetUse struct {
	Protocol string `json:"protocol"`
	// Policy is the missing-value policy: drop, impute or error.
	Policy string `json:"missing_policy"`
	// RowsUsed is the number of rows the protocol's folds are made of;
	// RowsDropped the rows of the file left out for a missing input (see
	// Dataset.Missing for why); CellsImputed the missing cells filled.
	RowsUsed     int `json:"rows_used"`
	RowsDropped  int `json:"rows_dropped"`
	CellsImputed int `json:"cells_imputed,omitempty"`
	// ClassCounts are the rows used per class, in the dataset's class
	// order.
	ClassCounts []int `json:"class_counts"`
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
	// Execution records the values of the execution-only parameters the
	// run gave its learners ("label: workers=0"), which results.csv and the
	// identity leave out because they cannot change a result.
	Execution []string `json:"execution,omitempty"`
	// Methods tells the views, for each method label of the study, its
	// display name, its place in the display order and whether it is
	// stochastic: all they need of the registry, so that they import no
	// learner. Manifests written before it existed lack it.
	Methods []results.Method `json:"methods,omitempty"`
	// StageSeconds is the time the run spent per stage (load, prepare, fit,
	// predict, write), summed over its workers: timing only, like Start
	// and End, outside the study's identity.
	StageSeconds map[string]float64 `json:"stage_seconds,omitempty"`
	// Artifacts says whether the directory keeps each unit's predictions
	// and models ("kept") or not ("off": --no-artifacts).
	Artifacts string `json:"artifacts,omitempty"`
	// Memory is the run's memory budget and the peak it reached: like
	// Jobs, execution only, outside the study's identity. Absent in
	// manifests written before it existed.
	Memory *Memory `json:"memory,omitempty"`
	// Identity is the study's identity: every group of units (and so every
	// unit key) the directory's results.csv may hold.
	Identity *identity.Study `json:"identity,omitempty"`
	// Partial is set when the results are knowingly incomplete (a merge
	// with --allow-partial).
	Partial *Partial `json:"partial,omitempty"`
	// History lists every invocation that wrote the directory, oldest
	// first; the last one is the run described above.
	History []Invocation `json:"history"`
}

// Memory records a run's memory budget (the units admitted by their
// estimated footprint within it) and the peak resident memory it reached.
type Memory struct {
	// BudgetBytes is the budget; 0 when the run had none.
	BudgetBytes int64 `json:"budget_bytes"`
	// Budget says where the budget came from: "--memory 4GB", or the
	// default share of the machine's memory and how that was read.
	Budget string `json:"budget"`
	// PeakRSSBytes is the process's peak resident memory when the run
	// ended (VmHWM); 0 when it could not be read.
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
}

// Partial says how incomplete knowingly partial results are.
type Partial struct {
	ExpectedUnits int `json:"expected_units"`
	PresentUnits  int `json:"present_units"`
	// Missing names the absent units (at most a few hundred; MissingCount
	// counts them all) and MissingShards the absent shards, "i/N".
	Missing       []string `json:"missing_units,omitempty"`
	MissingCount  int      `json:"missing_count"`
	MissingShards []string `json:"missing_shards,omitempty"`
}

// Invocation is one command that wrote the directory.
type Invocation struct {
	Command     []string  `json:"command"`
	Version     string    `json:"version"`
	VCSRevision string    `json:"vcs_revision,omitempty"`
	VCSModified bool      `json:"vcs_modified,omitempty"`
	GoVersion   string    `json:"go_version"`
	NumCPU      int       `json:"num_cpu"`
	Jobs        int       `json:"jobs"`
	Shard       string    `json:"shard"`
	StudyHash   string    `json:"study_hash,omitempty"`
	Execution   []string  `json:"execution,omitempty"`
	Start       time.Time `json:"start"`
	// End is zero while the invocation runs (or when it was killed).
	End     time.Time `json:"end,omitempty"`
	Units   int       `json:"units"`
	Ran     int       `json:"units_ran"`
	Resumed int       `json:"units_resumed"`
	Failed  int       `json:"units_failed"`
	Status  string    `json:"status"` // running, complete, failed, interrupted, unfinished (killed: no end recorded), merged
	// StageSeconds is Manifest.StageSeconds of this invocation.
	StageSeconds map[string]float64 `json:"stage_seconds,omitempty"`
	// Memory is Manifest.Memory of this invocation.
	Memory   *Memory `json:"memory,omitempty"`
	Hostname string  `json:"hostname,omitempty"`
}

// Current describes the manifest's latest run as an invocation.
func (m *Manifest) Current() Invocation {
	host, _ := os.Hostname()
	hash := ""
	if m.Identity != nil {
		hash = m.Identity.Hash
	}
	return Invocation{
		Command: m.Command, Version: m.Version, VCSRevision: m.VCSRevision, VCSModified: m.VCSModified,
		GoVersion: m.GoVersion, NumCPU: m.NumCPU, Jobs: m.Jobs, Shard: m.Shard, StudyHash: hash, Execution: m.Execution,
		Start: m.Start, End: m.End, Units: m.Units, Ran: m.Ran, Resumed: m.Skipped, Failed: m.Failed, Hostname: host,
		StageSeconds: m.StageSeconds, Memory: m.Memory,
	}
}

// Continue makes m the next invocation of the directory prev describes:
// it keeps prev's history (a manifest written before histories existed
// contributes its single run) and appends m's run with the given status.
// Call Record to update that last entry as the run progresses.
func (m *Manifest) Continue(prev *Manifest, status string) {
	m.History = nil
	if prev != nil {
		m.History = append(m.History, prev.History...)
		// A run that ended without recording its end (kill -9, a crash,
		// a lost node) still says "running"; the directory's next run
		// knows better.
		for i := range m.History {
			if m.History[i].Status == "running" {
				m.History[i].Status = "unfinished"
			}
		}
		if len(prev.History) == 0 && !prev.Start.IsZero() {
			old := prev.Current()
			old.Hostname = ""
			old.Status = "unknown"
			m.History = append(m.History, old)
		}
	}
	cur := m.Current()
	cur.Status = status
	m.History = append(m.History, cur)
}

// Record refreshes the last history entry from the top-level run fields.
func (m *Manifest) Record(status string) {
	cur := m.Current()
	cur.Status = status
	if n := len(m.History); n > 0 {
		m.History[n-1] = cur
	} else {
		m.History = append(m.History, cur)
	}
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

// Set by the linker in builds made outside a Go VCS stamp's reach (the
// container recipe in deploy/ builds from a copy without .git):
//
//	-ldflags "-X github.com/fgrtbench/fgrtbench/bench/manifest.linkVersion=v1.2.0
//	          -X github.com/fgrtbench/fgrtbench/bench/manifest.linkRevision=$(git rev-parse HEAD)
//	          -X github.com/fgrtbench/fgrtbench/bench/manifest.linkModified=false"
var linkVersion, linkRevision, linkModified string

// BuildInfo returns the module path, version and VCS revision of the
// running binary: the linker-set values when present, else the binary's
// VCS stamp, else (go run, go test) git in the working directory.
func BuildInfo() (module, version, revision string, modified bool) {
	module, version = "github.com/fgrtbench/fgrtbench", "(devel)"
	defer func() {
		if linkVersion != "" {
			version = linkVersion
		}
	}()
	if linkRevision != "" {
		return module, version, linkRevision, linkModified == "true"
	}
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
		if out, err := foreign.Output(exec.Command("git", "rev-parse", "HEAD")); err == nil {
			revision = strings.TrimSpace(string(out))
			if st, err := foreign.Output(exec.Command("git", "status", "--porcelain", "--untracked-files=no")); err == nil {
				modified = len(strings.TrimSpace(string(st))) > 0
			}
		}
	}
	return
}

// Write stores the manifest in dir atomically (a reader sees the old or the
// new manifest, never a mixture).
func (m *Manifest) Write(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	return atomicfile.WriteFile(filepath.Join(dir, FileName), data)
}

// Read loads a manifest from dir. manifest.json is a file fgrtbench writes
// (never through a link), so a link, pipe or device in its place is refused
// rather than read, and so is a file over safefile.ManifestCap.
func Read(dir string) (*Manifest, error) {
	data, err := safefile.ReadFileNoFollow(filepath.Join(dir, FileName), safefile.ManifestCap)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, FileName), err)
	}
	return &m, nil
}

// Verify refuses a manifest whose study identity was edited or corrupted:
// a group whose hash does not match its content (a method version or a
// dataset checksum changed by hand), a study hash that does not match its
// groups, or a dataset record whose checksum is not the one the identity
// holds for that dataset. It is the one check that resume, merge and
// report apply to a directory's manifest, so that none of them takes a
// manifest another would refuse. A manifest without an identity (an
// older fgrtbench) passes here; callers that need one say so.
func (m *Manifest) Verify(dir string) error {
	if m.Identity == nil {
		return nil
	}
	path := filepath.Join(dir, FileName)
	if err := m.Identity.Verify(); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	sums := map[string]string{}
	for _, g := range m.Identity.Groups {
		sums[g.Dataset] = g.DatasetSHA256
	}
	for _, d := range m.Datasets {
		if want, ok := sums[d.Name]; ok && d.NormalizedSHA256 != want {
			return fmt.Errorf("%s: dataset %s records checksum %s, but the study's identity has %s (an edited or corrupted manifest)", path, d.Name, d.NormalizedSHA256, want)
		}
	}
	return nil
}
