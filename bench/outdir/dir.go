package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/identity"
	"github.com/fgrtbench/fgrtbench/bench/manifest"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/results"
	"github.com/fgrtbench/fgrtbench/results/artifacts"
)

// Mismatch refuses an output directory that holds results of another
// study: resuming into it would mix rows of two experiments.
type Mismatch struct {
	Dir    string
	Reason string // what differs, e.g. "made with folds=3; this study has folds=5"
}

func (e *Mismatch) Error() string {
	return e.Reason + "; use a new --out, or --fresh to move the old results aside"
}

// CheckDir decides whether a study may write into dir. A directory belongs
// to the study its manifest records (its identity); results.csv rows carry
// their unit's identity in their key. The study may resume the directory
// when it includes every group of units the manifest records, unchanged
// (it may add groups: a strict superset), and when every row of
// results.csv is one of its units. Anything else is a *Mismatch naming the
// first difference. CheckDir returns the directory's manifest (nil when
// there is none) so that its provenance can be carried over.
func CheckDir(dir string, id identity.Study) (*manifest.Manifest, error) {
	prev, _, err := CheckDirResults(dir, id)
	return prev, err
}

// Existing is the parsed results.csv of an output directory, read
// once by checkDir and handed on to resume.
type Existing struct {
	Recs []results.Record
	// Truncated reports a final line cut short by a crash (dropped).
	Truncated bool
}

// CheckDirResults is CheckDir, also returning the directory's parsed results.csv
// (zero when there is none) so that a run under the directory's lock
// resumes from the very rows it checked, without reading them again.
func CheckDirResults(dir string, id identity.Study) (*manifest.Manifest, Existing, error) {
	var none Existing
	prev, err := manifest.Read(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		prev = nil
	case err != nil:
		return nil, none, &Mismatch{Dir: dir, Reason: fmt.Sprintf("cannot tell which study %s holds: %v", dir, err)}
	}
	if prev != nil && prev.Identity != nil {
		if err := prev.Verify(dir); err != nil {
			return nil, none, &Mismatch{Dir: dir, Reason: err.Error()}
		}
		if c := identity.Contains(id, *prev.Identity); c != nil {
			var reason string
			if c.Current == "" {
				reason = fmt.Sprintf("%s holds results of %s, which this study does not include", dir, c.Slot)
			} else {
				reason = fmt.Sprintf("the results in %s were made with %s; this study has %s (%s)", dir, c.Stored, c.Current, c.Slot)
			}
			switch {
			case c.More == 1:
				reason += ", and 1 more group of units differs"
			case c.More > 1:
				reason += fmt.Sprintf(", and %d more groups of units differ", c.More)
			}
			return nil, none, &Mismatch{Dir: dir, Reason: reason}
		}
	}
	path := filepath.Join(dir, results.FileName)
	data, err := safefile.ReadFileNoFollow(path, safefile.ResultsCap)
	if errors.Is(err, fs.ErrNotExist) {
		if prev == nil {
			if err := StrayArtifacts(dir); err != nil {
				return nil, none, err
			}
		}
		return prev, none, nil
	}
	if err != nil {
		return nil, none, err
	}
	recs, truncated, err := results.Read(bytes.NewReader(data))
	var fe *results.FieldError
	if errors.As(err, &fe) {
		fe.Path = path // a cell out of range: named by file, line and column
		return nil, none, &Mismatch{Dir: dir, Reason: fe.Error()}
	}
	if err != nil {
		return nil, none, &Mismatch{Dir: dir, Reason: fmt.Sprintf("%s is not a results file this version can resume (%v)", path, err)}
	}
	if reason := ForeignRow(path, id, recs); reason != "" {
		return nil, none, &Mismatch{Dir: dir, Reason: reason}
	}
	if err := CheckSelected(id, recs, path); err != nil {
		return nil, Existing{}, err
	}
	return prev, Existing{Recs: recs, Truncated: truncated}, nil
}

// StrayArtifacts refuses artifact files (predictions.csv.gz,
// models.jsonl.gz) in a directory that holds neither a manifest.json nor a
// results.csv: nothing there shows that fgrtbench wrote them (a run writes
// its manifest before any artifact), so they are a user's files of the same
// name, which a run or merge would otherwise cut or replace. While another
// fgrtbench process holds the directory's lock they may be its own, half
// written (a merge writes its artifacts before its results and manifest):
// that is refused as Busy, not as a stranger's files, and so are they when
// the lock is free but a manifest is there by the time it was looked at
// (the caller found none: the writer finished in between).
func StrayArtifacts(dir string) error {
	for _, n := range []string{artifacts.PredictionsFile, artifacts.ModelsFile} {
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); err == nil {
			if err := safefile.CheckRegular(p, "replace"); err != nil {
				return err
			}
			if held, note := heldElsewhere(filepath.Join(dir, LockFile)); held {
				return &Busy{Dir: dir, Holder: strings.TrimSpace(note)}
			}
			if finishedMeanwhile(dir) {
				return &Busy{Dir: dir}
			}
			return fmt.Errorf("%s is in the way and was not written by fgrtbench (%s holds no %s or %s); refusing to replace it: move it, or write into another directory", p, dir, manifest.FileName, results.FileName)
		}
	}
	return nil
}

// CheckStudyRows holds the rows of dir's results.csv to the study its
// manifest records, as report, resume and merge do (ForeignRow,
// CheckSelected): for the readers that can work without a manifest (the
// stored rules, a comparison of predictions), a directory with one is
// checked all the same. Without a manifest, or one without a study
// identity (an older fgrtbench), there is nothing to check against.
func CheckStudyRows(dir string, recs []results.Record) error {
	m, err := manifest.Read(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && m.Identity == nil) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := m.Verify(dir); err != nil {
		return err
	}
	path := filepath.Join(dir, results.FileName)
	if reason := ForeignRow(path, *m.Identity, recs); reason != "" {
		return errors.New(reason)
	}
	return CheckSelected(*m.Identity, recs, path)
}

// ForeignRow explains the first row of recs (read from path) that is none
// of the study's units: a row of another study or of an older fgrtbench,
// which must never be mixed with the study's own. It returns "" when every
// row is one of the study's.
func ForeignRow(path string, id identity.Study, recs []results.Record) string {
	keys := id.Keys()
	for _, rec := range recs {
		if !keys[rec.Key] {
			why := ""
			if w := outsideStudy(id, rec); w != "" {
				why = ": " + w
			}
			return fmt.Sprintf("%s holds rows of another study or an older fgrtbench (unit %s is not one of this study's%s)", path, rec.Key, why)
		}
	}
	return ""
}

// MoveAside renames dir to a new sibling "dir.replaced-<UTC time>" so that
// a fresh run starts empty while nothing of the old results is lost; the
// rename is atomic. It returns the new name, or "" when dir does not exist.
func MoveAside(dir string, now time.Time) (string, error) {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	clean := filepath.Clean(dir)
	// A run still writing there would go on writing into the moved
	// directory and then put its manifest into the new one.
	release, err := Lock(clean)
	var busy *Busy
	if errors.As(err, &busy) {
		return "", err
	}
	if err == nil {
		defer release()
	}
	dst := clean + ".replaced-" + now.UTC().Format("20060102T150405Z")
	if _, err := os.Lstat(dst); err == nil {
		return "", fmt.Errorf("cannot move %s aside: %s already exists", dir, dst)
	}
	if err := os.Rename(clean, dst); err != nil {
		return "", fmt.Errorf("cannot move %s aside (%v); choose a new --out instead", dir, err)
	}
	return dst, nil
}

// finishedMeanwhile says whether dir holds a manifest now: a caller that
// found none and then found the directory's lock free may have looked
// while its writer (which writes its manifest last, under the lock)
// finished. Its files are then another fgrtbench run's, not a stranger's.
func finishedMeanwhile(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, manifest.FileName))
	return err == nil
}
