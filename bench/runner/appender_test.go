package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// fullDisk is a results file on a disk with room for budget more bytes: the
// write that crosses it writes what fits and fails with ENOSPC, as write(2)
// does. syncErr and truncErr inject the other two failures.
type fullDisk struct {
	*os.File
	budget            int
	syncErr, truncErr error
	writes            int
}

func (f *fullDisk) Write(p []byte) (int, error) {
	f.writes++
	if len(p) <= f.budget {
		f.budget -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.budget])
	f.budget = 0
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func (f *fullDisk) Sync() error {
	if f.syncErr != nil {
		return f.syncErr
	}
	return f.File.Sync()
}

func (f *fullDisk) Truncate(size int64) error {
	if f.truncErr != nil {
		return f.truncErr
	}
	return f.File.Truncate(size)
}

// TestDiskFullStopsAndResumes fills the disk in the middle of a unit's
// rows (and in the header, and at the sync), and checks that the run stops
// with one WriteError, that results.csv holds whole units only (or, when
// cutting back fails too, a torn tail that resume drops), and that running
// again resumes to exactly the results of an uninterrupted run.
func TestDiskFullStopsAndResumes(t *testing.T) {
	ref := t.TempDir()
	runStudy(t, ref, 1, study.Shard{})
	want := stripTiming(t, filepath.Join(ref, results.FileName))
	header := len(strings.Join(results.Header, ",")) + 1

	cases := []struct {
		name     string
		disk     fullDisk
		wantTorn bool
	}{
		{"ENOSPC inside a unit", fullDisk{budget: header + 2500}, false},
		{"ENOSPC inside the header", fullDisk{budget: header / 2}, false},
		{"sync fails", fullDisk{budget: 1 << 30, syncErr: syscall.EIO}, false},
		{"cutting back fails too", fullDisk{budget: header + 2500, truncErr: syscall.EROFS}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, results.FileName)
			disk := c.disk
			r := &Runner{Load: testLoader, OutDir: dir, Jobs: 2, openResults: func(p string) (outdir.AppendFile, error) {
				f, err := outdir.OpenResultsFile(p)
				if err != nil {
					return nil, err
				}
				disk.File = f.(*os.File)
				return &disk, nil
			}}
			sum, err := r.Run(context.Background(), testStudy())
			var we *outdir.WriteError
			if !errors.As(err, &we) || we.Path != path {
				t.Fatalf("want a WriteError for %s, got %v", path, err)
			}
			if c.disk.syncErr == nil && !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("the cause is lost: %v", err)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || strings.Count(msg, path) != 1 || !strings.Contains(msg, "run the same command again to resume") {
				t.Fatalf("message: %q", msg)
			}
			if sum.Ran >= 60 {
				t.Fatalf("the run did not stop: %+v", sum)
			}

			data, _ := os.ReadFile(path)
			torn := len(data) > 0 && data[len(data)-1] != '\n'
			if torn != c.wantTorn {
				t.Fatalf("file ends torn = %v, want %v: ...%q", torn, c.wantTorn, data[max(0, len(data)-80):])
			}
			if !c.wantTorn && len(data) > 0 {
				recs, _, err := results.Read(strings.NewReader(string(data)))
				if err != nil {
					t.Fatal(err)
				}
				perUnit := map[string]int{}
				for _, rec := range recs {
					perUnit[rec.Key]++
				}
				if len(perUnit) != sum.Ran {
					t.Fatalf("%d units on disk, %d reported run", len(perUnit), sum.Ran)
				}
			}

			again := runStudy(t, dir, 2, study.Shard{})
			if again.Skipped != sum.Ran || again.Ran != 60-sum.Ran {
				t.Fatalf("resume skipped %d and ran %d after %d units were written", again.Skipped, again.Ran, sum.Ran)
			}
			if got := stripTiming(t, path); got != want {
				t.Fatal("resumed results differ from an uninterrupted run")
			}
		})
	}
}
