package fmath

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// views are the packages left out of the fused multiply-add check: they draw
// figures and pages from numbers the analysis already computed, and store
// none of their own (see docs/fidelity.md#portability).
var views = []string{"plots/", "reports/html/"}

// target is a platform whose compiler fuses multiply-adds, with the
// environment that builds for it and the fused instructions of its assembly
// listings (with the source position the compiler gives each).
type target struct {
	name  string
	env   []string
	fused *regexp.Regexp
}

var targets = []target{
	{"linux/arm64", []string{"GOOS=linux", "GOARCH=arm64"},
		regexp.MustCompile(`\((/[^)]+\.go):(\d+)\)\s+(FN?M(?:ADD|SUB)[DS])\b`)},
	// amd64 fuses too when built for x86-64-v3 (Haswell and later).
	{"linux/amd64 GOAMD64=v3", []string{"GOOS=linux", "GOARCH=amd64", "GOAMD64=v3"},
		regexp.MustCompile(`\((/[^)]+\.go):(\d+)\)\s+(VFN?M(?:ADD|SUB)\d{3}S[DS])\b`)},
}

// TestNoFusedMultiplyAdd cross-compiles the module for linux/arm64 and for
// linux/amd64 at GOAMD64=v3 and fails on every fused multiply-add instruction
// outside the views, except where the source line calls math.FMA on purpose.
// The Go compiler fuses x*y + z on arm64 (and ppc64le, s390x, riscv64, and
// amd64 at v3) unless the product is converted, float64(x*y) + z, and a
// fused result differs from the default amd64 build's in the last bit; so
// each such line is a place where those platforms would give other numbers.
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the module with assembly listings; runs without -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to cross-compile with")
	}
	root, module := moduleRoot(t)
	readSources(t, root)
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			checkFused(t, goCmd, root, module, tg)
		})
	}
}

func checkFused(t *testing.T, goCmd, root, module string, tg target) {
	cmd := exec.Command(goCmd, "build", "-gcflags="+module+"/...=-S", "./...")
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS="), tg.env...)
	var listing bytes.Buffer
	cmd.Stdout, cmd.Stderr = &listing, &listing
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s go build: %v\n%s", tg.name, err, tail(listing.String()))
	}

	sources := map[string][]string{}
	var found []string
	intended := 0
	seen := map[string]bool{}
	sc := bufio.NewScanner(&listing)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := tg.fused.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		rel, err := filepath.Rel(root, m[1])
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // code of another module, inlined
		}
		rel = filepath.ToSlash(rel)
		if isView(rel) {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		src := sourceLine(t, sources, m[1], line)
		if strings.Contains(src, "math.FMA(") {
			intended++
			continue
		}
		if key := rel + ":" + m[2]; !seen[key] {
			seen[key] = true
			found = append(found, key+": "+m[3]+": "+strings.TrimSpace(src))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if intended == 0 {
		t.Fatal("the listing shows not even Exp's math.FMA calls as fused instructions: the check would see nothing")
	}
	sort.Strings(found)
	for _, f := range found {
		t.Errorf("fused (round the product: float64(x*y) + z): %s", f)
	}
}

// readSources reads every Go file of the module. The listing comes from a
// subprocess, which go test's result cache does not watch; the files this
// test reads itself it does, so a change to any of them runs the check again.
func readSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isView(rel string) bool {
	for _, v := range views {
		if strings.HasPrefix(rel, v) {
			return true
		}
	}
	return false
}

// moduleRoot returns the directory of go.mod above this package and the
// module path it declares.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "module "); ok {
			return dir, strings.TrimSpace(rest)
		}
	}
	t.Fatal("go.mod names no module")
	return "", ""
}

// sourceLine returns line n (from 1) of a Go file, reading each file once.
func sourceLine(t *testing.T, cache map[string][]string, path string, n int) string {
	lines, ok := cache[path]
	if !ok {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines = strings.Split(string(data), "\n")
		cache[path] = lines
	}
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", path, n)
	}
	return lines[n-1]
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
