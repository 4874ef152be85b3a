package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fgrtbench/fgrtbench/tasks/runstudy"
	"github.com/fgrtbench/fgrtbench/timing/sidebyside"
)

func TestStartCPUProfile(t *testing.T) {
	dir := t.TempDir()
	env := func(path string) func(string) string {
		return func(k string) string {
			if k == cpuProfileEnv {
				return path
			}
			return ""
		}
	}

	t.Run("unset", func(t *testing.T) {
		stop, err := startCPUProfile(env(""))
		if err != nil || stop() != nil {
			t.Fatalf("without %s: %v", cpuProfileEnv, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("wrote %v without being asked", entries)
		}
	})

	t.Run("new file", func(t *testing.T) {
		path := filepath.Join(dir, "cpu.pprof")
		stop, err := startCPUProfile(env(path))
		if err != nil {
			t.Fatal(err)
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) { // pprof's gzipped protobuf
			t.Fatalf("profile starts %x, not a gzip stream", b[:min(len(b), 4)])
		}
	})

	t.Run("existing file", func(t *testing.T) {
		path := filepath.Join(dir, "mine.txt")
		if err := os.WriteFile(path, []byte("not fgrtbench's"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := startCPUProfile(env(path))
		if err == nil || !strings.Contains(err.Error(), cpuProfileEnv) {
			t.Fatalf("an existing file: error %v, want one naming %s", err, cpuProfileEnv)
		}
		if b, _ := os.ReadFile(path); string(b) != "not fgrtbench's" {
			t.Fatalf("the existing file now holds %q", b)
		}
	})
}

// TestSpeedChildrenDropOneProcessFiles: the variables that name a file for
// one process are the ones speed's children run without
// (sidebyside.OneProcessEnv), so that `FGRTBENCH_CPUPROFILE=p fgrtbench
// speed --scaling` profiles speed and its children still run.
func TestSpeedChildrenDropOneProcessFiles(t *testing.T) {
	for _, name := range []string{cpuProfileEnv, runstudy.UnitTimesEnv} {
		if !slices.Contains(sidebyside.OneProcessEnv, name) {
			t.Errorf("%s names a file for one process but speed's children keep it (sidebyside.OneProcessEnv %v)", name, sidebyside.OneProcessEnv)
		}
	}
}
