package datasets

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/atomicfile"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
)

// Environment variables read by DefaultCacheDir and NewFetcherFromEnv.
const (
	EnvCacheDir   = "FGRT_CACHE_DIR"
	EnvDataMirror = "FGRT_DATA_MIRROR"
)

// DefaultTimeout bounds one download when Fetcher.Timeout is zero.
const DefaultTimeout = 2 * time.Minute

// Size limits for downloads: the largest archive (spambase) is well under
// 1 MiB and its .dat under 2 MiB, so these only stop runaway responses and
// zip bombs.
const (
	maxArchiveBytes = 64 << 20
	maxDatBytes     = 256 << 20
)

// Fetcher obtains verified copies of the benchmark datasets and keeps them in
// a local cache directory as <CacheDir>/<name>.dat.
type Fetcher struct {
	// CacheDir holds verified files; DefaultCacheDir() when empty.
	CacheDir string
	// Mirror is a directory of .dat files (<Mirror>/<name>.dat, or the
	// authors' layout <Mirror>/<name>/<name>.dat) used instead of the
	// network; $FGRT_DATA_MIRROR when empty.
	Mirror string
	// Client performs downloads; http.DefaultClient when nil.
	Client *http.Client
	// BaseURL replaces KEELBaseURL (tests point it at a local server).
	BaseURL string
	// Timeout bounds each download; DefaultTimeout when zero.
	Timeout time.Duration
	// Log receives one line per action (cache hit, copy, download); nil
	// means silent.
	Log io.Writer
	// FileProgress, when set, gives the progress callback of each data
	// file of the user's own that LoadAs reads (LoadOptions.Progress).
	FileProgress func(path string) func(read, size int64)

	// lookup replaces Lookup; tests use it to register small datasets.
	lookup func(name string) (Info, error)
}

// DefaultCacheDir returns $FGRT_CACHE_DIR when set, otherwise
// <user cache dir>/fgrtbench (e.g. ~/.cache/fgrtbench), falling back to
// <temp dir>/fgrtbench-cache when the user cache directory is unknown.
func DefaultCacheDir() string {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "fgrtbench")
	}
	return filepath.Join(os.TempDir(), "fgrtbench-cache")
}

// NewFetcherFromEnv returns a Fetcher configured from the environment:
// cache directory from DefaultCacheDir, mirror from $FGRT_DATA_MIRROR.
func NewFetcherFromEnv() *Fetcher {
	return &Fetcher{CacheDir: DefaultCacheDir(), Mirror: os.Getenv(EnvDataMirror), Timeout: DefaultTimeout}
}

func (f *Fetcher) info(name string) (Info, error) {
	if f.lookup != nil {
		return f.lookup(name)
	}
	return Lookup(name)
}

func (f *Fetcher) logf(format string, args ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format+"\n", args...)
	}
}

func (f *Fetcher) cacheDir() string {
	if f.CacheDir != "" {
		return f.CacheDir
	}
	return DefaultCacheDir()
}

func (f *Fetcher) mirror() string {
	if f.Mirror != "" {
		return f.Mirror
	}
	return os.Getenv(EnvDataMirror)
}

// CachePath is where Fetch keeps the verified file of a dataset.
func (f *Fetcher) CachePath(name string) string {
	return filepath.Join(f.cacheDir(), name+".dat")
}

// Fetch returns the path of a verified copy of the named dataset. A cached
// file whose normalized checksum matches the registry is used as is;
// otherwise the file is copied from the mirror when one is configured, or
// else downloaded from KEEL, extracted from its zip archive and verified.
// The cache is written through a temporary file and a rename, so a failed
// or interrupted fetch never leaves a partial file behind; a cached file
// that fails verification is replaced.
func (f *Fetcher) Fetch(ctx context.Context, name string) (string, error) {
	path, _, err := f.fetch(ctx, name)
	return path, err
}

// fetch is Fetch that also returns the verified bytes, so that Load parses
// exactly what was checked, without reading the file a second time.
func (f *Fetcher) fetch(ctx context.Context, name string) (string, []byte, error) {
	info, err := f.info(name)
	if err != nil {
		return "", nil, err
	}
	dst := f.CachePath(name)
	// corrupted says what is wrong with a cached copy that is there but
	// cannot be used: when the fresh copy fails too, the error names both,
	// so that a user offline learns that the cache, not the network, is
	// what broke.
	var corrupted string
	if data, err := safefile.ReadFile(dst, safefile.DataCap); err == nil {
		if got := NormalizedSHA256(data); got == info.NormalizedSHA256 {
			f.logf("%s: using cached %s", name, dst)
			return dst, data, nil
		} else {
			corrupted = fmt.Sprintf("the cached copy %s is corrupted (normalized SHA-256 %s, want %s)", dst, short(got), short(info.NormalizedSHA256))
			f.logf("%s: cached %s has normalized SHA-256 %s, want %s; fetching a fresh copy", name, dst, short(got), short(info.NormalizedSHA256))
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		corrupted = fmt.Sprintf("the cached copy cannot be read (%v)", err)
	}
	var data []byte
	if m := f.mirror(); m != "" {
		data, err = f.fromMirror(m, info)
	} else {
		data, err = f.download(ctx, info)
	}
	if err != nil && corrupted != "" {
		return "", nil, fmt.Errorf("dataset %s: %s, and fetching a fresh copy failed: %w", name, corrupted, err)
	}
	if err != nil {
		return "", nil, err
	}
	if err := writeFile(dst, data); err != nil {
		return "", nil, fmt.Errorf("dataset %s: writing cache file: %v (check that %s is writable or set %s)", name, err, filepath.Dir(dst), EnvCacheDir)
	}
	return dst, data, nil
}

// Load fetches the named dataset, reads it and checks its shape against the
// registry (instances, features, classes, nominal inputs, rows with missing
// values).
func (f *Fetcher) Load(ctx context.Context, name string) (*Dataset, error) {
	p, data, err := f.fetch(ctx, name)
	if err != nil {
		return nil, err
	}
	d, err := ReadKEEL(bytes.NewReader(data), nameFromPath(p), p)
	if err != nil {
		return nil, err
	}
	info, err := f.info(name)
	if err != nil {
		return nil, err
	}
	if err := CheckShape(d, info); err != nil {
		return nil, err
	}
	// Fetch verified the file against the registry's checksum; the table
	// it parses to must be the one the registry pins, or Identity would
	// give these results another identity than the paper's.
	if got := ContentIdentity(d); got != info.ContentIdentity {
		return nil, fmt.Errorf("dataset %s: the verified file %s parses to table %s, but the registry pins %s: this build reads the file differently (a reader's bug)", name, p, short(got), short(info.ContentIdentity))
	}
	d.Checksum = info.NormalizedSHA256
	return d, nil
}

// CheckShape compares a dataset with the shape its registry entry expects.
func CheckShape(d *Dataset, info Info) error {
	if err := d.Validate(); err != nil {
		return err
	}
	nominal := 0
	for _, a := range d.Inputs {
		if a.Nominal() {
			nominal++
		}
	}
	var diffs []string
	check := func(what string, got, want int) {
		if got != want {
			diffs = append(diffs, fmt.Sprintf("%s %d, want %d", what, got, want))
		}
	}
	check("instances", d.Rows(), info.Instances)
	check("features", len(d.Inputs), info.Features)
	check("classes", len(d.Classes), info.Classes)
	check("nominal inputs", nominal, info.Nominal)
	check("rows with missing values", len(d.MissingRows()), info.MissingRows)
	if len(diffs) > 0 {
		return fmt.Errorf("dataset %s (%s): unexpected shape: %s", info.Name, d.Path, strings.Join(diffs, "; "))
	}
	return nil
}

// OfflineHint is how to run without the network, for an error about a
// failed download: the command line's --mirror flag and the environment
// variable both name a directory of KEEL files (%s: the dataset's name).
const OfflineHint = "give --mirror DIR or set " + EnvDataMirror + "=DIR, a directory holding %s.dat, to work from local files"

// fromMirror reads and verifies the mirror copy of a dataset.
func (f *Fetcher) fromMirror(mirror string, info Info) ([]byte, error) {
	src := filepath.Join(mirror, info.Name+".dat")
	data, err := safefile.ReadFile(src, safefile.DataCap)
	if errors.Is(err, os.ErrNotExist) {
		alt := filepath.Join(mirror, info.Name, info.Name+".dat")
		if d2, err2 := safefile.ReadFile(alt, safefile.DataCap); err2 == nil {
			src, data, err = alt, d2, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: mirror %s: %v (unset %s to download from KEEL instead)", info.Name, src, err, EnvDataMirror)
	}
	if got := NormalizedSHA256(data); got != info.NormalizedSHA256 {
		return nil, fmt.Errorf("dataset %s: mirror file %s has normalized SHA-256 %s, want %s (replace it with the KEEL file)", info.Name, src, got, info.NormalizedSHA256)
	}
	f.logf("%s: copied from mirror %s", info.Name, src)
	return data, nil
}

// download fetches the KEEL archive and returns the verified .dat bytes.
func (f *Fetcher) download(ctx context.Context, info Info) ([]byte, error) {
	url, timeout, client := f.endpoint(info)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("dataset %s: download %s: %s", info.Name, url, fmt.Sprintf(format, args...))
	}
	// A request that reached no server, or no good answer, is most often
	// a machine offline: the error says how to run from local files.
	offline := func(format string, args ...any) error {
		return fail(format+" (offline? "+OfflineHint+")", append(args, info.Name)...)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fail("%v", err)
	}
	f.logf("%s: downloading %s", info.Name, url)
	resp, err := client.Do(req)
	if err != nil {
		return nil, offline("%s", transportError(ctx, err, timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, offline("HTTP %s", resp.Status)
	}
	archive, err := io.ReadAll(io.LimitReader(resp.Body, maxArchiveBytes+1))
	if err != nil {
		return nil, offline("reading response: %s", transportError(ctx, err, timeout))
	}
	if len(archive) > maxArchiveBytes {
		return nil, fail("archive larger than %d bytes", maxArchiveBytes)
	}
	if resp.ContentLength >= 0 && int64(len(archive)) != resp.ContentLength {
		return nil, fail("truncated response: got %d of %d bytes", len(archive), resp.ContentLength)
	}
	data, err := extractDat(archive, info.Name)
	if err != nil {
		return nil, fail("%v", err)
	}
	if got := NormalizedSHA256(data); got != info.NormalizedSHA256 {
		return nil, fail("%s.dat has normalized SHA-256 %s, want %s (KEEL changed the file or the download is corrupt)", info.Name, got, info.NormalizedSHA256)
	}
	return data, nil
}

// endpoint is where and how a dataset is downloaded: its URL under the
// base (KEEL's by default), the timeout and the HTTP client.
func (f *Fetcher) endpoint(info Info) (url string, timeout time.Duration, client *http.Client) {
	base := f.BaseURL
	if base == "" {
		base = KEELBaseURL
	}
	timeout = f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	client = f.Client
	if client == nil {
		client = http.DefaultClient
	}
	return strings.TrimRight(base, "/") + "/" + info.Name + ".zip", timeout, client
}

// transportError describes a failed request, naming a timeout as such.
func transportError(ctx context.Context, err error, timeout time.Duration) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("timed out after %v", timeout)
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return "cancelled"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated response: the connection closed before the whole body arrived"
	}
	return oneLine(err.Error())
}

// extractDat returns the contents of <name>.dat from a zip archive, found by
// base name anywhere in the archive.
func extractDat(archive []byte, name string) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, fmt.Errorf("corrupt or truncated zip archive (%d bytes): %v", len(archive), err)
	}
	want := name + ".dat"
	var members []string
	for _, zf := range zr.File {
		members = append(members, zf.Name)
		if path.Base(strings.ReplaceAll(zf.Name, "\\", "/")) != want || zf.FileInfo().IsDir() {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("corrupt zip member %s: %v", zf.Name, err)
		}
		defer rc.Close()
		data, err := io.ReadAll(io.LimitReader(rc, maxDatBytes+1))
		if err != nil {
			return nil, fmt.Errorf("corrupt zip member %s: %v", zf.Name, err)
		}
		if len(data) > maxDatBytes {
			return nil, fmt.Errorf("zip member %s larger than %d bytes", zf.Name, maxDatBytes)
		}
		return data, nil
	}
	return nil, fmt.Errorf("archive has no %s (members: %s)", want, clip(strings.Join(members, ", ")))
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12] + "…"
	}
	return hash
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeFile stores data at dst atomically, creating the cache directory.
func writeFile(dst string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, data)
}
