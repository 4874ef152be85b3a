#!/usr/bin/env bash
# The multi-core scaling figures (docs/performance.md#on-16-cores) on a
# machine lent for them, in one call: prepare here, carry .scaling/ there,
# run there.
#
#   scripts/scaling-machine.sh prepare [MIRROR]
#   scripts/scaling-machine.sh run OUT [PAPER_J] [LARGE_J]
#
# prepare (here) builds a static fgrtbench into .scaling/ (deploy/build.sh)
# and copies the KEEL .dat files of MIRROR (default $FGRT_DATA_MIRROR, else
# ../shared/datasets/raw) into .scaling/raw. .scaling/ is ignored by git;
# give it to the machine with the tree (the device tool's carry).
#
# run (there) times the paper study at PAPER_J (default 1,16) and the 10^6
# study at LARGE_J (default 2,16) with `fgrtbench speed --scaling`, and
# writes OUT/machine.txt (the CPUs, memory, build, and the load average
# before and after each study), OUT/paper.log, OUT/large.log and each
# study's scaling.csv. ROWS=N shrinks the 10^6 study for a rehearsal here.
# On the 16-core Xeon of the first run these defaults took about 7 minutes
# (the paper study 123 s and 11 s, the 10^6 study 150 s and 70 s, its CSV
# about 25 s): one call of the device tool, with time left for nothing
# else, so rehearse here first.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.scaling
case ${1:-} in
prepare)
  mirror=${2:-${FGRT_DATA_MIRROR:-../shared/datasets/raw}}
  ls "$mirror"/*.dat > /dev/null 2>&1 || { echo "scaling-machine.sh: no .dat files in $mirror" >&2; exit 2; }
  git check-ignore -q "$dir/" || { echo "scaling-machine.sh: $dir/ is not ignored by git; refusing to write it" >&2; exit 2; }
  mkdir -p "$dir/raw"
  deploy/build.sh "$dir/fgrtbench"
  cp "$mirror"/*.dat "$dir/raw/"
  echo "prepared $dir: $("$dir/fgrtbench" version), $(ls "$dir/raw" | wc -l) datasets, $(du -sh "$dir" | cut -f1)"
  ;;
run)
  out=${2:?usage: scripts/scaling-machine.sh run OUT [PAPER_J] [LARGE_J]}
  paper_j=${3:-1,16}
  large_j=${4:-2,16}
  bin=$PWD/$dir/fgrtbench
  [ -x "$bin" ] || { echo "scaling-machine.sh: no $bin: run 'scripts/scaling-machine.sh prepare' first, and carry $dir" >&2; exit 2; }
  mkdir -p "$out"
  export FGRT_DATA_MIRROR=$PWD/$dir/raw
  data=$(mktemp -d "${TMPDIR:-/tmp}/fgrtbench-scaling.XXXXXX")
  trap 'rm -rf "$data"' EXIT
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "build: $("$bin" version)"
    echo "CPUs: $(nproc) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
    echo "memory: $(free -m | awk '/^Mem:/ { print $2 " MiB" }')"
  } > "$out/machine.txt"
  load() { echo "load average $1: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"; }
  load "before the paper study"
  "$bin" speed --scaling --scaling-studies paper --scaling-j "$paper_j" --out "$out/paper" > "$out/paper.log" 2>&1 ||
    echo "paper study failed: $(tail -n 1 "$out/paper.log")" >> "$out/machine.txt"
  load "before the 10^6 study"
  "$bin" speed --scaling --scaling-studies large --scaling-j "$large_j" --scaling-rows "${ROWS:-1000000}" \
    --scaling-data "$data" --out "$out/large" > "$out/large.log" 2>&1 ||
    echo "10^6 study failed: $(tail -n 1 "$out/large.log")" >> "$out/machine.txt"
  load "after"
  cat "$out/machine.txt" "$out/paper.log" "$out/large.log"
  ;;
*)
  echo "usage: scripts/scaling-machine.sh prepare [MIRROR] | run OUT [PAPER_J] [LARGE_J]" >&2
  exit 2
  ;;
esac
