package datasets

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tinyKEEL is a hand-made dataset in KEEL form with CRLF endings and a
// trailing blank, so that raw and normalized hashes differ.
const tinyKEEL = "@relation tiny\r\n@attribute a real [0.0, 5.0] \r\n@attribute Class {n, p}\r\n@inputs a\r\n@outputs Class\r\n@data\r\n1.0, n\r\n2.5, p\r\n4.0, p\r\n"

func tinyInfo() Info {
	d, err := ReadKEEL(strings.NewReader(tinyKEEL), "tiny", "tiny.dat")
	if err != nil {
		panic(err)
	}
	return Info{Name: "tiny", NormalizedSHA256: NormalizedSHA256([]byte(tinyKEEL)), ContentIdentity: ContentIdentity(d), Instances: 3, Features: 1, Classes: 2}
}

// zipOf builds a zip archive holding the given members.
func zipOf(t *testing.T, members map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range members {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testFetcher returns a fetcher with a fresh cache that knows only "tiny".
func testFetcher(t *testing.T, baseURL string) *Fetcher {
	t.Setenv(EnvDataMirror, "")
	info := tinyInfo()
	return &Fetcher{
		CacheDir: t.TempDir(),
		BaseURL:  baseURL,
		Timeout:  5 * time.Second,
		lookup: func(name string) (Info, error) {
			if name == info.Name {
				return info, nil
			}
			return Lookup(name)
		},
	}
}

// server serves body at /tiny.zip and counts requests.
func server(t *testing.T, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func serveBytes(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/tiny.zip" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}
}

// assertNoTempFiles checks that a failed fetch left nothing in the cache.
func assertCacheEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("cache holds %s after a failed fetch", e.Name())
	}
}

func TestFetchDownloadAndCacheHit(t *testing.T) {
	archive := zipOf(t, map[string]string{"tiny/tiny.dat": tinyKEEL, "tiny-names.txt": "about"})
	srv, hits := server(t, serveBytes(archive))
	f := testFetcher(t, srv.URL)
	var log bytes.Buffer
	f.Log = &log
	p, err := f.Fetch(context.Background(), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != tinyKEEL {
		t.Fatalf("cached file differs from the archive member")
	}
	if p2, err := f.Fetch(context.Background(), "tiny"); err != nil || p2 != p {
		t.Fatalf("second fetch: %q, %v", p2, err)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("%d requests, want 1 (second fetch must be a cache hit)", n)
	}
	if !strings.Contains(log.String(), "using cached") {
		t.Errorf("log = %q", log.String())
	}
	d, err := f.Load(context.Background(), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "tiny" || d.Rows() != 3 {
		t.Errorf("loaded %q with %d rows", d.Name, d.Rows())
	}
}

func TestFetchFailures(t *testing.T) {
	good := zipOf(t, map[string]string{"tiny.dat": tinyKEEL})
	altered := zipOf(t, map[string]string{"tiny.dat": strings.Replace(tinyKEEL, "4.0", "4.5", 1)})
	cases := []struct {
		name    string
		handler http.HandlerFunc
		timeout time.Duration
		want    []string
	}{
		{"wrong checksum", serveBytes(altered), 0, []string{"dataset tiny", "/tiny.zip", "normalized SHA-256 ", "want " + tinyInfo().NormalizedSHA256}},
		{"404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, 0, []string{"dataset tiny", "HTTP 404 Not Found", "offline? give --mirror DIR or set FGRT_DATA_MIRROR=DIR, a directory holding tiny.dat"}},
		{"truncated body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000")
			w.Write(good[:len(good)/2])
		}, 0, []string{"dataset tiny", "truncated", "--mirror DIR", "FGRT_DATA_MIRROR=DIR"}},
		{"truncated zip", serveBytes(good[:len(good)-10]), 0, []string{"corrupt or truncated zip"}},
		{"not a zip", serveBytes([]byte("<html>maintenance</html>")), 0, []string{"corrupt or truncated zip"}},
		{"member missing", serveBytes(zipOf(t, map[string]string{"other.dat": tinyKEEL})), 0, []string{"archive has no tiny.dat (members: other.dat)"}},
		{"slow server", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
			}
		}, 100 * time.Millisecond, []string{"timed out after 100ms", "--mirror DIR", "FGRT_DATA_MIRROR=DIR"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := server(t, c.handler)
			f := testFetcher(t, srv.URL)
			if c.timeout > 0 {
				f.Timeout = c.timeout
			}
			_, err := f.Fetch(context.Background(), "tiny")
			if err == nil {
				t.Fatal("fetch succeeded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans several lines: %q", err)
			}
			t.Log(err)
			assertCacheEmpty(t, f.CacheDir)
		})
	}
}

func TestFetchMirror(t *testing.T) {
	srv, hits := server(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	f := testFetcher(t, srv.URL)
	mirror := t.TempDir()
	// A mirror copy with LF endings: same normalized content, other bytes.
	lf := strings.ReplaceAll(tinyKEEL, "\r\n", "\n")
	if err := os.WriteFile(filepath.Join(mirror, "tiny.dat"), []byte(lf), 0o644); err != nil {
		t.Fatal(err)
	}
	f.Mirror = mirror
	p, err := f.Fetch(context.Background(), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != lf || p != filepath.Join(f.CacheDir, "tiny.dat") {
		t.Errorf("mirror copy not cached at %s", p)
	}
	if hits.Load() != 0 {
		t.Errorf("mirror fetch made %d HTTP requests", hits.Load())
	}

	// The environment variable is used when the field is empty.
	f2 := testFetcher(t, srv.URL)
	t.Setenv(EnvDataMirror, mirror)
	if _, err := f2.Fetch(context.Background(), "tiny"); err != nil {
		t.Fatalf("mirror from %s: %v", EnvDataMirror, err)
	}

	// A bad mirror copy is rejected with both hashes and the mirror path.
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "tiny.dat"), []byte(lf+"9.9, n\n"), 0o644)
	f3 := testFetcher(t, srv.URL)
	f3.Mirror = bad
	_, err = f3.Fetch(context.Background(), "tiny")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "tiny.dat")) || !strings.Contains(err.Error(), tinyInfo().NormalizedSHA256) {
		t.Errorf("bad mirror: err = %v", err)
	}
	assertCacheEmpty(t, f3.CacheDir)

	// Missing mirror file.
	f3.Mirror = t.TempDir()
	if _, err := f3.Fetch(context.Background(), "tiny"); err == nil || !strings.Contains(err.Error(), "mirror") {
		t.Errorf("missing mirror file: err = %v", err)
	}
}

func TestFetchReplacesCorruptCache(t *testing.T) {
	srv, hits := server(t, serveBytes(zipOf(t, map[string]string{"tiny.dat": tinyKEEL})))
	f := testFetcher(t, srv.URL)
	if err := os.WriteFile(f.CachePath("tiny"), []byte("half a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := f.Fetch(context.Background(), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != tinyKEEL {
		t.Errorf("corrupt cache file not replaced")
	}
	if hits.Load() != 1 {
		t.Errorf("%d requests, want 1", hits.Load())
	}
	entries, _ := os.ReadDir(f.CacheDir)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want only tiny.dat", len(entries))
	}
}

func TestFetchUnknownDataset(t *testing.T) {
	f := testFetcher(t, "http://127.0.0.1:1")
	_, err := f.Fetch(context.Background(), "iris")
	if err == nil || !strings.Contains(err.Error(), "valid names: appendicitis, australian") {
		t.Errorf("err = %v", err)
	}
}

func TestLoadRejectsWrongShape(t *testing.T) {
	srv, _ := server(t, serveBytes(zipOf(t, map[string]string{"tiny.dat": tinyKEEL})))
	f := testFetcher(t, srv.URL)
	want := tinyInfo()
	want.Instances = 4
	f.lookup = func(string) (Info, error) { return want, nil }
	_, err := f.Load(context.Background(), "tiny")
	if err == nil || !strings.Contains(err.Error(), "instances 3, want 4") {
		t.Errorf("err = %v", err)
	}
}

func TestDefaultCacheDirAndEnv(t *testing.T) {
	t.Setenv(EnvCacheDir, "/some/cache")
	t.Setenv(EnvDataMirror, "/some/mirror")
	if got := DefaultCacheDir(); got != "/some/cache" {
		t.Errorf("DefaultCacheDir = %q", got)
	}
	f := NewFetcherFromEnv()
	if f.CacheDir != "/some/cache" || f.Mirror != "/some/mirror" {
		t.Errorf("NewFetcherFromEnv = %+v", f)
	}
	t.Setenv(EnvCacheDir, "")
	if got := DefaultCacheDir(); !strings.HasSuffix(got, "fgrtbench") && !strings.HasSuffix(got, "fgrtbench-cache") {
		t.Errorf("DefaultCacheDir without env = %q", got)
	}
}

func TestNormalizedSHA256(t *testing.T) {
	// Same content with different line endings and trailing blanks hashes
	// the same; a changed value does not.
	a := NormalizedSHA256([]byte("x, y\n1, 2\n"))
	for _, v := range []string{"x, y\r\n1, 2\r\n", "x, y  \n1, 2\t\r\n", "x, y\n1, 2 \n"} {
		if got := NormalizedSHA256([]byte(v)); got != a {
			t.Errorf("NormalizedSHA256(%q) = %s, want %s", v, got, a)
		}
	}
	if NormalizedSHA256([]byte("x, y\n1, 3\n")) == a || NormalizedSHA256([]byte("x,y\n1, 2\n")) == a {
		t.Error("different content hashed equal")
	}
	// sha256sum of the empty input.
	if got := NormalizedSHA256(nil); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("empty: %s", got)
	}
}

func TestRegistry(t *testing.T) {
	ns := Names()
	if len(ns) != 10 {
		t.Fatalf("Names() = %v", ns)
	}
	for _, n := range ns {
		info, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		if info.Name != n || info.URL != KEELBaseURL+"/"+n+".zip" || len(info.NormalizedSHA256) != 64 || info.PaperInstances == 0 || info.Domain == "" {
			t.Errorf("incomplete entry %+v", info)
		}
	}
	if _, err := Lookup("Wine"); err == nil {
		t.Error("Lookup is case-sensitive by design; Wine should fail")
	}
}

// TestFetchOffline: a download that reaches no server (a machine offline)
// fails in one line that names the flag and the variable to work from
// local files, and leaves no cache file.
func TestFetchOffline(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now: the connection is refused
	f := testFetcher(t, url)
	_, err := f.Fetch(context.Background(), "tiny")
	if err == nil {
		t.Fatal("fetch from a closed server succeeded")
	}
	for _, want := range []string{"dataset tiny: download " + url + "/tiny.zip", "offline? give --mirror DIR or set FGRT_DATA_MIRROR=DIR, a directory holding tiny.dat"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans several lines: %q", err)
	}
	t.Log(err)
	assertCacheEmpty(t, f.CacheDir)
}

// TestCorruptedCacheNamed (issue 30, "messages that say what happened"): a
// cached copy that fails verification, when no fresh copy can be had
// either, is named as corrupted beside the failed download, in one line;
// the cache is left as it was (a fetch that fails writes nothing).
func TestCorruptedCacheNamed(t *testing.T) {
	for _, c := range []struct {
		name   string
		plant  func(path string) error
		want   string
		exists bool
	}{
		{"edited copy", func(p string) error { return os.WriteFile(p, []byte(strings.Replace(tinyKEEL, "1", "7", 1)), 0o644) }, "is corrupted (normalized SHA-256 ", true},
		{"truncated copy", func(p string) error { return os.WriteFile(p, []byte(tinyKEEL[:len(tinyKEEL)/2]), 0o644) }, "is corrupted (normalized SHA-256 ", true},
		{"a directory in its place", func(p string) error { return os.Mkdir(p, 0o755) }, "the cached copy cannot be read", true},
		{"absent", func(string) error { return nil }, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := server(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			f := testFetcher(t, srv.URL)
			os.MkdirAll(f.CacheDir, 0o755)
			cached := filepath.Join(f.CacheDir, "tiny.dat")
			if err := c.plant(cached); err != nil {
				t.Fatal(err)
			}
			beforeData, _ := os.ReadFile(cached)
			_, err := f.Fetch(context.Background(), "tiny")
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v, want one line", err)
			}
			switch {
			case c.want != "" && (!strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "and fetching a fresh copy failed: ") || !strings.Contains(err.Error(), "404")):
				t.Errorf("error %q names neither the cache (%q) nor the failed download", err, c.want)
			case c.want == "" && strings.Contains(err.Error(), "cached copy"):
				t.Errorf("without a cached copy the error %q blames one", err)
			}
			afterData, _ := os.ReadFile(cached)
			if st, err := os.Lstat(cached); (err == nil) != c.exists || string(afterData) != string(beforeData) || (err == nil && c.name == "a directory in its place" && !st.IsDir()) {
				t.Error("a failed fetch changed the cached copy")
			}
		})
	}
}
