//go:build !unix

package outdir

import (
	"errors"
	"os"
)

// tryLock: no advisory locks here; runs into one directory are not
// guarded against each other.
func tryLock(*os.File) (bool, error) { return false, errors.New("no file locks on this system") }

// heldElsewhere: no advisory locks here.
func heldElsewhere(string) (bool, string) { return false, "" }
