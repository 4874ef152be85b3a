#!/usr/bin/env bash
# scripts/arm64.sh: the same study on two architectures, byte for byte.
#
# Builds fgrtbench for the host (linux/amd64) and for linux/arm64, runs one
# small study of every learner (FGA and a FuzzyCART sweep over max_rules and
# target_metric included) natively and under qemu-aarch64, and compares
# results.csv (its timing columns aside, scripts/untimed.sh), predictions.csv.gz
# and models.jsonl.gz (decompressed) and the tables of the report each renders
# (report/*.csv, timing columns aside) and its analysis.json (timings and the
# study's record aside, the statistical tests included) byte for byte. Any
# difference fails, with the count of rows that differ in each file and the
# first of them. Before the study, the test binaries of internal/fmath and
# stats for arm64 run under qemu and check the fingerprints of fmath's
# functions and of stats' portable distributions (the bits amd64 gives).
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
echo "stats' portable distributions' fingerprints under $qemu"
GOOS=linux GOARCH=arm64 go test -c -o "$work/stats-arm64.test" ./stats
"$qemu" "$work/stats-arm64.test" -test.run 'TestPortableSameBitsOnEveryArchitecture' -test.count 1 ||
  { echo "stats' portable distributions give other bits on arm64"; exit 1; }

echo "running the study natively (amd64) and under $qemu (arm64)"
"$work/fgrtbench-amd64" run --spec "$work/study.yaml" --out "$work/amd64" --no-report -j 2 > "$work/amd64.log" 2>&1 ||
  { tail -5 "$work/amd64.log"; echo "the amd64 run failed"; exit 1; }
"$qemu" "$work/fgrtbench-arm64" run --spec "$work/study.yaml" --out "$work/arm64" --no-report -j 2 > "$work/arm64.log" 2>&1 ||
  { tail -5 "$work/arm64.log"; echo "the arm64 run failed"; exit 1; }

echo "rendering both reports (natively and under $qemu)"
"$work/fgrtbench-amd64" report --results "$work/amd64" > "$work/amd64-report.log" 2>&1 ||
  { tail -5 "$work/amd64-report.log"; echo "the amd64 report failed"; exit 1; }
"$qemu" "$work/fgrtbench-arm64" report --results "$work/arm64" > "$work/arm64-report.log" 2>&1 ||
  { tail -5 "$work/arm64-report.log"; echo "the arm64 report failed"; exit 1; }

# shellcheck source=untimed.sh
. scripts/untimed.sh
untimed "$work/amd64/results.csv" > "$work/amd64.results"
untimed "$work/arm64/results.csv" > "$work/arm64.results"
# The report's tables (cells, ranks, tests, sweeps), timing columns aside.
for f in "$work"/amd64/report/*.csv; do untimed "$f"; done > "$work/amd64.report-tables"
for f in "$work"/arm64/report/*.csv; do untimed "$f"; done > "$work/arm64.report-tables"
# The analysis behind the report at full precision (report/analysis.json):
# everything but timings and the study's record (command, machine), the
# statistical tests' p-values, posteriors and intervals included
# (docs/fidelity.md#portability).
analysis_numbers() {
  perl -MJSON::PP -e '
    local $/;
    my $json = JSON::PP->new->allow_bignum->canonical->pretty;
    my $a = $json->decode(<STDIN>);
    delete $a->{study};
    sub strip {
      my $v = shift;
      if (ref $v eq "HASH") {
        for my $k (keys %$v) { if ($k =~ /seconds/) { delete $v->{$k} } else { strip($v->{$k}) } }
      } elsif (ref $v eq "ARRAY") { strip($_) for @$v }
    }
    strip($a);
    print $json->encode($a);
  ' < "$1"
}
analysis_numbers "$work/amd64/report/analysis.json" > "$work/amd64.analysis"
analysis_numbers "$work/arm64/report/analysis.json" > "$work/arm64.analysis"
gzip -dc "$work/amd64/predictions.csv.gz" > "$work/amd64.predictions"
gzip -dc "$work/arm64/predictions.csv.gz" > "$work/arm64.predictions"
gzip -dc "$work/amd64/models.jsonl.gz" > "$work/amd64.models"
gzip -dc "$work/arm64/models.jsonl.gz" > "$work/arm64.models"

failed=0
for what in results predictions models report-tables analysis; do
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
