#!/usr/bin/env bash
# scripts/arm64.sh: the same study on two architectures, byte for byte.
#
# Builds fgrtbench for the host (linux/amd64) and for linux/arm64, runs one
# small study of every learner (FGA and a FuzzyCART sweep over max_rules and
# target_metric included) natively and under qemu-aarch64, and compares
# results.csv (the timing columns fit_seconds and predict_seconds aside),
# predictions.csv.gz and models.jsonl.gz (decompressed) byte for byte. Any
# difference fails, with the count of rows that differ in each file and the
# first of them. Before the study, internal/fmath's test binary for arm64 runs
# under qemu and checks its functions' fingerprints (the bits amd64 gives).
# Why the outputs can agree at all: docs/fidelity.md#portability.
#
# Needs the KEEL mirror (FGRT_DATA_MIRROR, else ../shared/datasets/raw) and
# qemu-aarch64 (Debian's qemu-user or qemu-user-static); without either it
# prints "skipped: ..." and exits 0. On a host that is not amd64 it skips too.
# FGRT_ARM64_KEEP=DIR keeps the two runs in DIR instead of deleting them.
# Under qemu the study takes about a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(go env GOHOSTARCH)" != amd64 ]; then
  echo "skipped: the host is $(go env GOHOSTARCH), not amd64 (this check runs an arm64 build under qemu beside the native amd64 one)"
  exit 0
fi
mirror="${FGRT_DATA_MIRROR:-$(cd .. && pwd)/shared/datasets/raw}"
if [ ! -d "$mirror" ]; then
  echo "skipped: no dataset mirror at $mirror (set FGRT_DATA_MIRROR to the KEEL files)"
  exit 0
fi
qemu=""
for q in qemu-aarch64 qemu-aarch64-static; do
  if command -v "$q" >/dev/null; then qemu="$q"; break; fi
done
if [ -z "$qemu" ]; then
  echo "skipped: qemu-aarch64 is not installed (apt-get install qemu-user)"
  exit 0
fi

work="${FGRT_ARM64_KEEP:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
else
  mkdir -p "$work"
  rm -rf "$work/amd64" "$work/arm64" # this script's own earlier runs
fi
export FGRT_DATA_MIRROR="$mirror"
export FGRT_CACHE_DIR="$work/cache"

# Five small KEEL tables (numeric, integer-coded and missing values), three
# folds, every learner; FuzzyCART's sweep is six configurations per fold.
cat > "$work/study.yaml" <<'SPEC'
name: arm64-portability
protocols: [clean]
datasets: [appendicitis, wine, hepatitis, zoo, dermatology]
folds: 3
repeats: 1
seed: 11
inner_folds: 2
methods:
  - {name: fgrt}
  - {name: fgrt-opt}
  - {name: cart}
  - {name: c45}
  - {name: c45-entropy}
  - {name: ripper}
  - {name: fga}
  - {name: majority}
  - name: fuzzycart
    sweep: {max_rules: ["5", "10", "20"], target_metric: ["cci", "purity"]}
    selection: sweep
SPEC

echo "building linux/amd64 and linux/arm64"
GOOS=linux GOARCH=amd64 go build -o "$work/fgrtbench-amd64" ./cmd/fgrtbench
GOOS=linux GOARCH=arm64 go build -o "$work/fgrtbench-arm64" ./cmd/fgrtbench

echo "internal/fmath's fingerprints under $qemu"
GOOS=linux GOARCH=arm64 go test -c -o "$work/fmath-arm64.test" ./internal/fmath
"$qemu" "$work/fmath-arm64.test" -test.run 'TestSameBitsOnEveryArchitecture' -test.count 1 ||
  { echo "fmath's functions give other bits on arm64"; exit 1; }

echo "running the study natively (amd64) and under $qemu (arm64)"
"$work/fgrtbench-amd64" run --spec "$work/study.yaml" --out "$work/amd64" --no-report -j 2 > "$work/amd64.log" 2>&1 ||
  { tail -5 "$work/amd64.log"; echo "the amd64 run failed"; exit 1; }
"$qemu" "$work/fgrtbench-arm64" run --spec "$work/study.yaml" --out "$work/arm64" --no-report -j 2 > "$work/arm64.log" 2>&1 ||
  { tail -5 "$work/arm64.log"; echo "the arm64 run failed"; exit 1; }

# untimed FILE: results.csv without its timing columns (found by name).
untimed() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fit_seconds" || $i == "predict_seconds") skip[i] = 1 }
    { line = ""; sep = ""; for (i = 1; i <= NF; i++) if (!skip[i]) { line = line sep $i; sep = OFS }; print line }' "$1"
}
untimed "$work/amd64/results.csv" > "$work/amd64.results"
untimed "$work/arm64/results.csv" > "$work/arm64.results"
gzip -dc "$work/amd64/predictions.csv.gz" > "$work/amd64.predictions"
gzip -dc "$work/arm64/predictions.csv.gz" > "$work/arm64.predictions"
gzip -dc "$work/amd64/models.jsonl.gz" > "$work/amd64.models"
gzip -dc "$work/arm64/models.jsonl.gz" > "$work/arm64.models"

failed=0
for what in results predictions models; do
  a="$work/amd64.$what" b="$work/arm64.$what"
  rows=$(wc -l < "$a")
  if cmp -s "$a" "$b"; then
    echo "same: $what ($rows lines)"
  else
    diff "$a" "$b" > "$work/$what.diff" || true
    differing=$(grep -c '^<' "$work/$what.diff" || true)
    echo "DIFFERENT: $what: $differing of $rows lines differ; the first (amd64 <, arm64 >):"
    awk '/^[<>]/ && n++ < 2' "$work/$what.diff" | cut -c 1-300
    failed=1
  fi
done
if [ "$failed" != 0 ]; then
  echo "arm64 gives other results than amd64 (a fused multiply-add or an architecture's math routine?)"
  exit 1
fi
echo "arm64 and amd64 agree byte for byte"
