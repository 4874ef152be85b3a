package outdir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// LockFile is the file in an output directory whose advisory lock a run
// holds while it writes there.
const LockFile = ".fgrtbench.lock"

// Busy refuses an output directory that another run is writing: each run
// rewrites results.csv from the rows it knows, so two at once would drop
// each other's rows.
type Busy struct {
	Dir    string
	Holder string // what the holder wrote into the lock file, if anything
}

func (e *Busy) Error() string {
	holder := "another fgrtbench run"
	if e.Holder != "" {
		holder += " (" + e.Holder + ")"
	}
	return fmt.Sprintf("%s is being written by %s; wait for it to finish, or give each concurrent run (each shard) its own --out", e.Dir, holder)
}

// Lock takes dir's run lock without waiting and returns the function
// that releases it. Where the file system offers no locks, the run goes on
// unlocked, as it did before locks existed.
func Lock(dir string) (release func(), err error) {
	path := filepath.Join(dir, LockFile)
	// Never through a link: anyone who can write a shared output directory
	// could otherwise make this run truncate and rewrite any file its user
	// can write.
	f, err := safefile.OpenWrite(path, os.O_RDWR|os.O_CREATE, 0o644)
	if safefile.IsUnsafe(err) {
		return nil, err
	}
	if err != nil {
		return nil, &WriteError{Path: path, Err: err}
	}
	held, err := tryLock(f)
	switch {
	case err != nil:
		return func() { f.Close() }, nil
	case !held:
		note, _ := io.ReadAll(io.LimitReader(f, 200))
		f.Close()
		return nil, &Busy{Dir: dir, Holder: strings.TrimSpace(string(note))}
	}
	// Who holds it, for the message a second run prints; best effort.
	host, _ := os.Hostname()
	if f.Truncate(0) == nil {
		fmt.Fprintf(f, "pid %d on %s since %s", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	}
	return func() { f.Close() }, nil
}
