#!/usr/bin/env bash
# Fault injection that needs root: a real full disk. Every other fault case
# (bad input, changed studies, torn and foreign shards, edited rows,
# tampered baselines, a busy directory) is a Go test: the script tests in
# cmd/fgrtbench/testdata/script and the tests they name, run by go test.
#
# As root, this mounts a 64 KB tmpfs, runs a study into it until the disk
# is full, and checks that the run stops with one line, leaves whole rows
# only and no report, and resumes once there is room to exactly the results
# of a run that had room throughout. Anyone else gets a skip line (the Go
# test TestDiskFullStopsAndResumes injects ENOSPC instead). Needs no
# network and no dataset mirror: the study runs CART on a CSV file written
# here.
set -uo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
mnt="$work/mnt"
cleanup() { mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"; rm -rf "$work"; }
trap cleanup EXIT

mkdir -p "$mnt"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
  echo "faults: skipped: disk_full needs root and a tmpfs mount (TestDiskFullStopsAndResumes injects ENOSPC instead)"
  exit 0
fi

bin="$work/fgrtbench"
go build -o "$bin" ./cmd/fgrtbench || { echo "faults: build failed"; exit 1; }
export FGRT_CACHE_DIR="$work/cache"
. scripts/untimed.sh
# values FILE: results.csv without its comment lines and timing columns.
values() { grep -v '^#' "$1" | untimed -; }

passed=0
failed=0
# check TEXT COMMAND...: COMMAND must succeed.
check() {
  local what="$1"
  shift
  if "$@"; then
    passed=$((passed + 1)); printf 'ok    disk_full  %s\n' "$what"
  else
    failed=$((failed + 1)); printf 'FAIL  disk_full  %s\n' "$what"
  fi
}

# A two-class CSV of 60 rows, and a sweep large enough to fill 64 KB.
awk 'BEGIN {
  print "x1,x2,class"
  for (i = 0; i < 60; i++) printf "%g,%d,%s\n", i % 10 + (i % 2) * 3, (i * 7) % 11, (i % 2 ? "b" : "a")
}' > "$work/mine.csv"
printf 'protocols: [clean]\ndatasets: [%s]\nfolds: 5\nrepeats: 4\ninner_folds: 2\nmethods:\n  - {name: cart, selection: sweep, sweep: {ccp_alpha: [0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]}}\n' \
  "$work/mine.csv" > "$work/s.yaml"
"$bin" run --spec "$work/s.yaml" --out "$work/ref" --no-report >/dev/null 2>&1 || { echo "faults: reference run failed"; exit 1; }

out="$("$bin" run --spec "$work/s.yaml" --out "$mnt/out" 2>&1)"
status=$?
rows=$(($(wc -l < "$mnt/out/results.csv") - 1))
check "exit $status with 'no space left on device; the run stopped': $(printf '%s\n' "$out" | grep -m1 'no space left' | cut -c1-120)" \
  test "$status" = 1 -a -n "$(printf '%s\n' "$out" | grep -F 'no space left on device; the run stopped')"
check "one error line, no report, $rows whole rows kept and none torn" \
  test "$(printf '%s\n' "$out" | grep -c 'fgrtbench run:')" = 1 -a ! -e "$mnt/out/report" -a "$rows" -gt 0 \
  -a "$(tail -c 1 "$mnt/out/results.csv" | od -An -c | tr -d ' ')" = '\n'
mount -o remount,size=8m "$mnt"
"$bin" run --spec "$work/s.yaml" --out "$mnt/out" --no-report >/dev/null 2>&1
status=$?
check "with room, the same command resumes (exit $status) to the results of an uninterrupted run" \
  test "$status" = 0 -a "$(values "$mnt/out/results.csv")" = "$(values "$work/ref/results.csv")"

echo "faults: $passed checks passed, $failed failed"
[ "$failed" = 0 ]
