#!/usr/bin/env bash
# Fault injection: build fgrtbench, inject each fault a results archive can
# suffer into a temporary directory, and check that the harness refuses it
# with a one-line message and a non-zero exit status (or, for a crash, that
# the next run repairs it). Needs no network and no dataset mirror: the
# study runs CART on a small CSV file this script writes.
#
#   scripts/faults.sh            run every case
#   scripts/faults.sh torn_row   run the named cases only
#
# To add a case, define a function case_<name> below; it is found by name.
# Inside it, use fresh DIR names under "$work", the helpers spec/data/run,
# and expect/expect_ok to state what must happen.
set -uo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
bin="$work/fgrtbench"
go build -o "$bin" ./cmd/fgrtbench || { echo "faults: build failed"; exit 1; }
export FGRT_CACHE_DIR="$work/cache"

passed=0
failed=0

# data FILE [SHIFT]: a two-class CSV of 60 rows; SHIFT edits one cell.
data() {
  awk -v shift="${2:-0}" 'BEGIN {
    print "x1,x2,class"
    for (i = 0; i < 60; i++) {
      x1 = i % 10 + (i % 2) * 3; if (i == 5) x1 += shift
      printf "%g,%d,%s\n", x1, (i * 7) % 11, (i % 2 ? "b" : "a")
    }
  }' > "$1"
}

# spec FILE DATA FOLDS: a clean-protocol study of CART on DATA.
spec() {
  printf 'protocols: [clean]\ndatasets: [%s]\nfolds: %s\ninner_folds: 2\nmethods:\n  - name: cart\n' "$2" "$3" > "$1"
}

# run ARGS...: fgrtbench quietly; output in $out, status in $status.
run() {
  out="$("$bin" "$@" 2>&1)"
  status=$?
}

# expect NAME STATUS TEXT ARGS...: running fgrtbench ARGS must exit with
# STATUS and print TEXT in a one-line error.
expect() {
  local name="$1" want="$2" text="$3"
  shift 3
  run "$@"
  local msg
  msg="$(printf '%s\n' "$out" | grep -m1 -F -- "$text")"
  if [ "$status" = "$want" ] && [ -n "$msg" ]; then
    passed=$((passed + 1))
    printf 'ok    %-22s exit %s: %s\n' "$name" "$status" "${msg:0:160}"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-22s exit %s (want %s), output lacks %q:\n%s\n' "$name" "$status" "$want" "$text" "$out"
  fi
}

# expect_ok NAME CONDITION-DESCRIPTION COMMAND...: COMMAND must succeed.
expect_ok() {
  local name="$1" what="$2"
  shift 2
  if "$@"; then
    passed=$((passed + 1))
    printf 'ok    %-22s %s\n' "$name" "$what"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-22s %s\n' "$name" "$what"
  fi
}

# values FILE: results.csv without its comment lines and timing columns.
. scripts/untimed.sh
values() { grep -v '^#' "$1" | untimed -; }

# A reference study and its shards, shared by the cases.
base="$work/base"
mkdir -p "$base"
data "$base/mine.csv"
spec "$base/s.yaml" "$base/mine.csv" 3
"$bin" run --spec "$base/s.yaml" --out "$base/ref" -j 2 --no-report >/dev/null 2>&1 || { echo "faults: reference run failed"; exit 1; }
for i in 0 1 2; do
  "$bin" run --spec "$base/s.yaml" --out "$base/shard$i" --shard "$i/3" -j 1 >/dev/null 2>&1 || { echo "faults: shard $i failed"; exit 1; }
done

# Cases of bad input (issue 12, items 6-8): each is refused before anything
# is written, and a full disk leaves whole rows only.

# refused NAME TEXT DIR ARGS...: fgrtbench ARGS must exit 1 with TEXT in a
# one-line error before writing anything: DIR must not exist afterwards.
refused() {
  local name="$1" text="$2" dir="$3"
  shift 3
  expect "$name" 1 "$text" "$@"
  expect_ok "$name" "nothing written ($(basename "$dir") absent)" test ! -e "$dir"
}

# cell FILE LINE COLUMN VALUE: the data file with one cell replaced.
cell() {
  data "$1.orig"
  awk -F, -v OFS=, -v line="$2" -v col="$3" -v v="$4" 'NR == line { $col = v } { print }' "$1.orig" > "$1"
}

case_bad_cell() {
  local d="$work/bad_cell"
  mkdir -p "$d"
  cell "$d/mine.csv" 8 2 abc
  refused bad_cell 'mine.csv:8: column 2 (x2): "abc" is not a number' "$d/out" \
    reproduce --datasets "$d/mine.csv" --methods cart --out "$d/out"
  cell "$d/inf.csv" 9 1 -inf
  refused infinite_cell 'inf.csv:9: column 1 (x1): "-inf" is infinite' "$d/out" \
    reproduce --datasets "$d/inf.csv" --methods cart --out "$d/out"
  # Declared nominal in the header, the same column reads.
  sed '1s/x2/x2:nominal/' "$d/mine.csv" > "$d/declared.csv"
  run datasets "$d/declared.csv"
  expect_ok declared_nominal "x2:nominal makes the column nominal (exit $status)" \
    test "$status" = 0 -a "$(printf '%s\n' "$out" | awk 'NR == 2 { print $4 }')" = 1
}

case_folds_0() {
  local d="$work/folds_0"
  mkdir -p "$d"
  spec "$d/s.yaml" "$base/mine.csv" 0
  refused folds_0 "folds must be at least 2, got 0" "$d/out" run --spec "$d/s.yaml" --out "$d/out"
  printf 'datasets: []\nmethods: [{name: cart}]\n' > "$d/empty.yaml"
  refused datasets_empty "datasets is empty" "$d/out" run --spec "$d/empty.yaml" --out "$d/out"
  refused jobs_negative "-j -5: need at least 1" "$d/out" run --spec "$base/s.yaml" --out "$d/out" -j -5
}

case_empty_sweep() {
  local d="$work/empty_sweep"
  mkdir -p "$d"
  printf 'datasets: [%s]\nmethods: [{name: cart, sweep: {ccp_alpha: []}}]\n' "$base/mine.csv" > "$d/s.yaml"
  refused empty_sweep "sweep of ccp_alpha lists no values" "$d/out" run --spec "$d/s.yaml" --out "$d/out"
}

case_one_class() {
  local d="$work/one_class"
  mkdir -p "$d"
  data "$d/all.csv"
  sed '2,$s/,b$/,a/' "$d/all.csv" > "$d/one.csv"
  refused one_class "single class" "$d/out" reproduce --datasets "$d/one.csv" --methods cart --out "$d/out"
  head -7 "$d/all.csv" > "$d/few.csv"
  refused too_few_rows "5-fold stratified cross-validation needs a class with at least 5 complete rows; the largest has 3" "$d/out" \
    reproduce --datasets "$d/few.csv" --methods cart --out "$d/out"
  printf '@relation r\n@attribute name string\n@attribute x numeric\n@attribute class {a,b}\n@data\n' > "$d/s.arff"
  refused string_arff "type string is not supported" "$d/out" reproduce --datasets "$d/s.arff" --methods cart --out "$d/out"
  : > "$d/empty.csv"
  refused empty_file "empty file" "$d/out" reproduce --datasets "$d/empty.csv" --methods cart --out "$d/out"
  expect datasets_file 0 "normalised SHA-256 $(sha256sum < "$base/mine.csv" | cut -d' ' -f1)" datasets "$base/mine.csv"
}

case_disk_full() {
  # A real full disk: a 64 KB tmpfs (root only). The run must stop with one
  # line, leave whole rows only and no report, and resume once there is
  # room to exactly the results of a run that had room throughout.
  local d="$work/disk_full" mnt="$work/disk_full/mnt"
  mkdir -p "$mnt"
  if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
    echo "skip  disk_full              needs root and a tmpfs mount (the Go test TestDiskFullStopsAndResumes injects ENOSPC instead)"
    return
  fi
  printf 'protocols: [clean]\ndatasets: [%s]\nfolds: 5\nrepeats: 4\ninner_folds: 2\nmethods:\n  - {name: cart, selection: sweep, sweep: {ccp_alpha: [0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5]}}\n' \
    "$base/mine.csv" > "$d/s.yaml"
  "$bin" run --spec "$d/s.yaml" --out "$d/ref" --no-report >/dev/null 2>&1
  expect disk_full 1 "no space left on device; the run stopped" run --spec "$d/s.yaml" --out "$mnt/out"
  local rows=$(($(wc -l < "$mnt/out/results.csv") - 1))
  expect_ok disk_full "one error line, no report, $rows whole rows kept and none torn" \
    test "$(printf '%s\n' "$out" | grep -c 'fgrtbench run:')" = 1 -a ! -e "$mnt/out/report" -a "$rows" -gt 0 \
    -a "$(tail -c 1 "$mnt/out/results.csv" | od -An -c | tr -d ' ')" = '\n'
  mount -o remount,size=8m "$mnt"
  run run --spec "$d/s.yaml" --out "$mnt/out" --no-report
  expect_ok disk_full "with room, the same command resumes (exit $status) to the results of an uninterrupted run" \
    test "$status" = 0 -a "$(values "$mnt/out/results.csv")" = "$(values "$d/ref/results.csv")"
  umount "$mnt"
}

case_changed_spec() {
  local d="$work/changed_spec"
  cp -r "$base/ref" "$d"
  spec "$work/s5.yaml" "$base/mine.csv" 5
  expect changed_spec 1 "made with folds=3; this study has folds=5" run --spec "$work/s5.yaml" --out "$d"
}

case_edited_data() {
  local d="$work/edited_data"
  mkdir -p "$d"
  data "$d/mine.csv"
  spec "$d/s.yaml" "$d/mine.csv" 3
  "$bin" run --spec "$d/s.yaml" --out "$d/out" --no-report >/dev/null 2>&1
  data "$d/mine.csv" 0.5
  expect edited_data 1 "sha256=" run --spec "$d/s.yaml" --out "$d/out"
}

# A run holds OUT/.fgrtbench.lock while it writes; flock(1) stands in for a
# second shard given the same --out at the same moment.
case_busy_dir() {
  local d="$work/busy_dir"
  cp -r "$base/shard0" "$d"
  if ! command -v flock >/dev/null; then
    printf 'skip  %-22s no flock(1) here\n' busy_dir
    return
  fi
  local before
  before="$(values "$d/results.csv")"
  flock "$d/.fgrtbench.lock" sleep 5 &
  local holder=$!
  sleep 0.3
  expect busy_dir 1 "is being written by another fgrtbench run" run --spec "$base/s.yaml" --out "$d" --shard 1/3
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
  expect_ok busy_dir "results.csv untouched by the refused run" test "$before" = "$(values "$d/results.csv")"
}

case_missing_shard() {
  expect missing_shard 1 "no input holds shard 1/3" merge --out "$work/missing_shard" "$base/shard0" "$base/shard2"
}

case_foreign_shard() {
  local d="$work/foreign_shard"
  spec "$work/s4.yaml" "$base/mine.csv" 4
  "$bin" run --spec "$work/s4.yaml" --out "$d" --shard 2/3 >/dev/null 2>&1
  expect foreign_shard 1 "is of another study" merge --out "$work/foreign_merged" "$base/shard0" "$base/shard1" "$d"
}

case_conflicting_rows() {
  local d="$work/conflicting_rows"
  cp -r "$base/shard1" "$d"
  # Row 2 claims one correct prediction more (or fewer), its accuracy to match.
  awk -F, -v OFS=, -v CONVFMT=%.17g -v OFMT=%.17g \
    'NR == 2 { $13 = ($13 < $12 ? $13 + 1 : $13 - 1); $14 = $13 / $12 } { print }' \
    "$base/shard1/results.csv" > "$d/results.csv"
  expect conflicting_rows 1 "differs between" merge --out "$work/conflict_merged" "$base/shard0" "$base/shard1" "$base/shard2" "$d"
}

case_edited_accuracy() {
  # An accuracy that is not correct / n_test: an edited row, refused by
  # every reader (report, merge, resume, check) with its line.
  local d="$work/edited_accuracy"
  cp -r "$base/ref" "$d"
  awk -F, -v OFS=, 'NR == 3 { $14 = 0.99 } { print }' "$base/ref/results.csv" > "$d/results.csv"
  expect edited_accuracy 1 "line 3: results: accuracy 0.99 is not correct / n_test" report --results "$d"
  expect edited_accuracy 1 "line 3: results: accuracy 0.99 is not correct / n_test" run --spec "$base/s.yaml" --out "$d"
}

case_torn_row() {
  # A crash in the middle of appending a row: the next run repairs it and
  # the results equal an uninterrupted run's.
  local d="$work/torn_row"
  cp -r "$base/ref" "$d"
  local size
  size=$(wc -c < "$d/results.csv")
  truncate -s $((size - 40)) "$d/results.csv"
  run run --spec "$base/s.yaml" --out "$d" --no-report
  expect_ok torn_row "a torn last row is redone on resume (exit $status) and results match an uninterrupted run" \
    test "$status" = 0 -a "$(values "$d/results.csv")" = "$(values "$base/ref/results.csv")"
  # The same tear in a shard makes merge name the incomplete unit.
  local s="$work/torn_shard"
  cp -r "$base/shard2" "$s"
  size=$(wc -c < "$s/results.csv")
  truncate -s $((size - 40)) "$s/results.csv"
  expect torn_shard 1 "shard 2/3 incomplete" merge --out "$work/torn_merged" "$base/shard0" "$base/shard1" "$s"
}

case_partial_merge_marked() {
  local d="$work/partial_merge"
  run merge --out "$d" --allow-partial "$base/shard0" "$base/shard2"
  expect_ok partial_merge "--allow-partial exits $status and marks results.csv partial" \
    grep -q '^# partial: 2 of 3 units' "$d/results.csv"
}

case_merge_onto_device() {
  # merge --out /dev/full must not replace the device: a device node made
  # here (root) or a named pipe (anyone) stands in for it.
  local dev="$work/full.csv"
  mknod "$dev" c 1 7 2>/dev/null || mkfifo "$dev"
  expect merge_onto_device 1 "refusing to replace it" merge --out "$dev" "$base/shard0" "$base/shard1" "$base/shard2"
  expect_ok merge_onto_device "the device node is still there" test ! -f "$dev"
}

case_tampered_baseline() {
  local b="$work/baseline.json"
  "$bin" check --baseline "$b" --spec "$base/s.yaml" --results "$base/ref" --update >/dev/null 2>&1
  # The first row's correct count becomes 157 (of n_test 20): the accuracy
  # column is left alone, as in the issue.
  sed -i '0,/"correct":[0-9]*/s//"correct":157/' "$b"
  expect tampered_baseline 1 "(correct 1)" check --baseline "$b" --results "$base/ref"
}

case_interrupted_baseline() {
  # A run killed while appending a unit of a 3-point sweep left 2 of its 3
  # rows: no baseline may be written from it.
  local d="$work/interrupted_baseline"
  mkdir -p "$d"
  printf 'protocols: [clean]\ndatasets: [%s]\nfolds: 3\ninner_folds: 2\nmethods:\n  - name: cart\n    grid: text\n    selection: sweep\n' "$base/mine.csv" > "$d/s.yaml"
  "$bin" run --spec "$d/s.yaml" --out "$d/out" --no-report >/dev/null 2>&1
  sed -i '4d' "$d/out/results.csv"
  expect interrupted_baseline 1 "lacks some of its 3 rows" check --baseline "$d/b.json" --update --results "$d/out"
}

case_baseline_of_other_study() {
  # Results of a 4-fold study checked against the 3-fold baseline: a
  # different experiment, refused as such rather than listed as moved rows.
  local d="$work/baseline_other"
  mkdir -p "$d"
  "$bin" check --baseline "$d/b.json" --spec "$base/s.yaml" --results "$base/ref" --update >/dev/null 2>&1
  spec "$d/s4.yaml" "$base/mine.csv" 4
  "$bin" run --spec "$d/s4.yaml" --out "$d/out" --no-report >/dev/null 2>&1
  expect baseline_other_study 1 "were made with folds=4; the baseline's study has folds=3" check --baseline "$d/b.json" --results "$d/out"
}

cases=()
if [ $# -gt 0 ]; then
  cases=("$@")
else
  while read -r _ _ fn; do
    case "$fn" in case_*) cases+=("${fn#case_}") ;; esac
  done < <(declare -F)
fi
for c in "${cases[@]}"; do
  if ! declare -F "case_$c" >/dev/null; then
    echo "faults: no case $c"; failed=$((failed + 1)); continue
  fi
  "case_$c"
done
echo "faults: $passed checks passed, $failed failed"
[ "$failed" = 0 ]
