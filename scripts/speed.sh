#!/usr/bin/env bash
# Speed, measured side by side: build fgrtbench, then time its learners and
# the reference implementations installed on this machine (scikit-learn's
# trees through Debian's /usr/bin/python3 with python3-sklearn, Weka's J48
# and JRip through Debian's weka) on the same data, and print the table
# with ratios (`fgrtbench speed`). References that are not installed are
# reported as such; nothing is installed unless asked.
#
#   scripts/speed.sh             print the comparison (about a minute)
#   scripts/speed.sh --readme    also time ./run.sh and the FGA hold-out
#                                study, and rewrite docs/performance.md's
#                                generated performance block (run it on a
#                                quiet machine: `uptime` load well below 1)
#   scripts/speed.sh --large     add the 10^6-row CART fits (scikit-learn
#                                takes minutes)
#   scripts/speed.sh --install   first apt-get install python3-sklearn weka
#                                (as root)
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
for arg in "$@"; do
  case "$arg" in
    --install)
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y python3-sklearn weka ;;
    --readme) args+=(--readme docs/performance.md) ;;
    --large) args+=(--large) ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "speed.sh: unknown argument $arg (use --readme, --large, --install)" >&2; exit 2 ;;
  esac
done

if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi
go build -o ./fgrtbench ./cmd/fgrtbench
./fgrtbench speed "${args[@]}"
