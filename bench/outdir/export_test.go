package outdir

// SetAfterManifestRead sets the hook mergeTarget's unlocked look runs after
// it found no manifest, and returns the function that restores it.
func SetAfterManifestRead(f func()) (restore func()) {
	prev := afterManifestRead
	afterManifestRead = f
	return func() { afterManifestRead = prev }
}
