#!/usr/bin/env bash
# Speed, measured side by side: build fgrtbench, then time its learners and
# the reference implementations installed on this machine (scikit-learn's
# trees through Debian's /usr/bin/python3 with python3-sklearn, Weka's J48
# and JRip through Debian's weka) on the same data, and print the table
# with ratios (`fgrtbench speed`). References that are not installed are
# reported as such; nothing is installed unless asked.
#
#   scripts/speed.sh             print the comparison (about a minute)
#   scripts/speed.sh --readme    also time ./run.sh, the FGA hold-out
#                                study, the large-data study (--large-data)
#                                and external learners in process and
#                                worker mode (--external), and splice the
#                                block that
#                                `fgrtbench speed --markdown` prints into
#                                docs/performance.md between its speed:begin
#                                and speed:end markers (--readme=FILE: into
#                                FILE); several minutes: run it on a quiet
#                                machine (`uptime` load well below 1)
#   scripts/speed.sh --large     add the 10^6-row CART fits (scikit-learn
#                                takes minutes)
#   scripts/speed.sh --external  add the external-learner study (process
#                                against worker mode; under 2 minutes)
#   scripts/speed.sh --install   first apt-get install python3-sklearn weka
#                                (as root)
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
target=
for arg in "$@"; do
  case "$arg" in
    --install)
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y python3-sklearn weka ;;
    --readme) target=docs/performance.md ;;
    --readme=?*) target=${arg#--readme=} ;;
    --large) args+=(--large) ;;
    --external) args+=(--external) ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "speed.sh: unknown argument $arg (use --readme, --large, --external, --install)" >&2; exit 2 ;;
  esac
done

# splice: scripts/lib.sh.
. scripts/lib.sh

# SPEED_BLOCK=FILE splices FILE instead of measuring (how the tests check
# the splice against the binary's --markdown framing).
if [ -n "$target" ] && [ -n "${SPEED_BLOCK:-}" ]; then
  splice "$target" "$SPEED_BLOCK"
  exit
fi

if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi
go build -o ./fgrtbench ./cmd/fgrtbench
if [ -z "$target" ]; then
  exec ./fgrtbench speed "${args[@]}"
fi
block=$(mktemp)
trap 'rm -f "$block"' EXIT
# The block states every measurement: --external is dropped from args so
# that it is passed once.
readme_args=()
for arg in "${args[@]}"; do
  [ "$arg" = --external ] || readme_args+=("$arg")
done
./fgrtbench speed --run-sh --large-data --external --markdown "${readme_args[@]}" > "$block"
cat "$block"
splice "$target" "$block"
echo
echo "rewrote the performance block of $target"
