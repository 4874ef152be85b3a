#!/usr/bin/env bash
# External methods: worker mode against process mode, measured side by side
# in one run. Builds fgrtbench, copies the scikit-learn example
# (examples/external/sklearn.yaml and its adapter) into a scratch directory
# twice, once with `mode: process` and once with `mode: worker` (the same
# study: the mode is outside its identity), runs both A B A B ... with
# fresh output directories, prints the wall time of each run, the medians
# and their ratio, checks that both modes wrote the same results.csv
# (timing columns aside), and counts the adapter's jobs to give worker
# mode's wall time per job.
#
#   scripts/external-speed.sh              2 rounds, -j 2
#   scripts/external-speed.sh --rounds 3   more rounds
#   scripts/external-speed.sh -j 4         another worker count
#
# Needs a python3 with scikit-learn: FGRT_PYTHON names it (e.g.
# /usr/bin/python3 with Debian's python3-sklearn), else python3 on PATH.
# Process mode starts Python (and imports scikit-learn) for every job, so
# a round takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=2
jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "external-speed.sh: unknown argument $1 (use --rounds N, -j N)" >&2; exit 2 ;;
  esac
done

if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# The spec runs "python3": put the chosen interpreter first on PATH.
py="${FGRT_PYTHON:-python3}"
py="$(command -v "$py" || true)"
if [ -z "$py" ] || ! "$py" -c 'import sklearn' 2>/dev/null; then
  echo "external-speed.sh: ${FGRT_PYTHON:-python3} cannot import sklearn; set FGRT_PYTHON to a python3 with scikit-learn (Debian: apt-get install python3-sklearn)" >&2
  exit 1
fi
mkdir -p "$scratch/bin"
ln -s "$py" "$scratch/bin/python3"
export PATH="$scratch/bin:$PATH"

go build -o "$scratch/fgrtbench" ./cmd/fgrtbench
for mode in process worker; do
  mkdir -p "$scratch/$mode"
  cp examples/external/sklearn_tree.py examples/external/fgrtbench_adapter.py "$scratch/$mode/"
  # One external method: the example's spec without its Go CART, in this mode.
  sed -e "s/^      mode: worker.*/      mode: $mode/" -e '/^  - name: cart$/d' \
    examples/external/sklearn.yaml > "$scratch/$mode/sklearn.yaml"
  grep -q "mode: $mode" "$scratch/$mode/sklearn.yaml"
done

# results.csv without its timing columns.
untimed() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_seconds$/) t[i] = 1 }
           { for (i in t) $i = ""; print }' OFS=, "$1"
}

echo "fgrtbench external speed: examples/external/sklearn.yaml (the external method), -j $jobs, $rounds rounds, $(uname -m), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "python: $py ($("$py" -c 'import sklearn, sys; print("Python %d.%d.%d" % sys.version_info[:3], "scikit-learn", sklearn.__version__)'))"
declare -A walls
for r in $(seq 1 "$rounds"); do
  for mode in process worker; do
    out="$scratch/out-$mode-$r"
    start=$(date +%s.%N)
    "$scratch/fgrtbench" run --spec "$scratch/$mode/sklearn.yaml" --out "$out" -j "$jobs" --no-report 2>/dev/null
    end=$(date +%s.%N)
    wall=$(echo "$end - $start" | bc)
    walls[$mode]+="$wall "
    printf 'round %d  %-7s  %8.2f s\n' "$r" "$mode" "$wall"
    untimed "$out/results.csv" > "$scratch/untimed-$mode-$r.csv"
  done
  if ! cmp -s "$scratch/untimed-process-$r.csv" "$scratch/untimed-worker-$r.csv"; then
    echo "external-speed.sh: round $r: process and worker mode wrote different results" >&2
    diff "$scratch/untimed-process-$r.csv" "$scratch/untimed-worker-$r.csv" | head >&2
    exit 1
  fi
done

# The adapter's jobs, counted once (untimed) from their kept directories.
"$scratch/fgrtbench" run --spec "$scratch/worker/sklearn.yaml" --out "$scratch/out-count" -j "$jobs" --no-report \
  --keep-unit-dirs "$scratch/kept" 2>/dev/null
njobs=$(find "$scratch/kept" -mindepth 1 -maxdepth 1 -name 'job-*' | wc -l)

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
p=$(echo "${walls[process]}" | median)
w=$(echo "${walls[worker]}" | median)
units=$(($(wc -l < "$scratch/untimed-worker-1.csv") - 1))
echo "results.csv identical in both modes (timing columns aside): $units rows"
printf 'median wall: process %.2f s, worker %.2f s: worker mode %.1fx faster\n' "$p" "$w" "$(echo "$p / $w" | bc -l)"
printf '%d adapter jobs: process %.1f ms per job, worker %.1f ms per job (wall / jobs, with -j %d)\n' \
  "$njobs" "$(echo "$p * 1000 / $njobs" | bc -l)" "$(echo "$w * 1000 / $njobs" | bc -l)" "$jobs"
