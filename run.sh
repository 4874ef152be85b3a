#!/usr/bin/env bash
# One-command reproduction of "A Fast Interpretable Fuzzy Tree Learner":
# fetch and verify the ten datasets, run every method under the paper's
# protocol and the clean protocol, and write the report (tables, figures,
# statistics) to $OUT/report/REPORT.md.
#
#   ./run.sh            reproduce into ./out
#   ./run.sh --check    reproduce, then verify against the committed full baseline
#                       and the authors' published numbers
#   ./run.sh --fresh    move an existing $OUT aside first (e.g. results of an older
#                       version, which reproduce refuses to mix with new ones)
#   ./run.sh --no-artifacts
#                       keep no per-row predictions or models (what they cost is
#                       measured with this: docs/results.md)
#   OUT=dir JOBS=n ./run.sh
set -euo pipefail
cd "$(dirname "$0")"

check=0
fresh=()
artifacts=()
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    --fresh) fresh=(--fresh) ;;
    --no-artifacts) artifacts=(--no-artifacts) ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $arg (use --check, --fresh or --no-artifacts)" >&2; exit 2 ;;
  esac
done

OUT="${OUT:-out}"
JOBS="${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}"
if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi

start=$(date +%s)
echo "== build"
# In a checkout, stamped as deploy/build.sh stamps a release (version,
# revision, modified), so the binary names its revision wherever it runs.
if git rev-parse --verify -q HEAD >/dev/null 2>&1; then
  deploy/build.sh ./fgrtbench
else
  go build -o ./fgrtbench ./cmd/fgrtbench
fi

echo "== fetch, verify and summarise the datasets${FGRT_DATA_MIRROR:+ (mirror: $FGRT_DATA_MIRROR)}"
# datasets fetches and verifies every file it reads (a checksum mismatch
# stops here), so one table lists each dataset once.
./fgrtbench datasets

echo "== reproduce (paper and clean protocols, all methods)"
# The report is rendered once, below, when the runtime study it includes is
# on disk too (if reproduce fails, `fgrtbench report --results "$OUT"`
# reports the units that finished, marked PARTIAL).
./fgrtbench reproduce --no-report --out "$OUT" -j "$JOBS" "${fresh[@]}" "${artifacts[@]}"

echo "== runtime study"
./fgrtbench runtime --out "$OUT" --datasets pima,ring,spambase,wine

echo "== report"
# Ends with the run's result: the headline (mean rank per method, datasets
# where each is best) and the report's path.
./fgrtbench report --results "$OUT"

if [ "$check" = 1 ]; then
  echo "== check against the full baseline and the authors' numbers"
  ./fgrtbench check --baseline gate/baselines/full.json --results "$OUT" --paper
fi
echo "== done in $(( $(date +%s) - start ))s: $OUT/report/REPORT.md"
