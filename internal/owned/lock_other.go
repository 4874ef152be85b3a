//go:build !unix

package owned

// lockDir: no advisory locks here; the marker's re-read before the
// rename is the only guard against a concurrent writer.
func lockDir(string) func() { return func() {} }
