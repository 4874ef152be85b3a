#!/usr/bin/env bash
# This work tree's build against an earlier revision's, side by side:
#
#   scripts/versus.sh REV [speed --scaling flags]
#
# builds fgrtbench from the work tree and from REV (scripts/lib.sh's
# build_rev: a temporary git worktree, removed afterwards), then runs
#
#   fgrtbench speed --scaling --versus <REV's binary> --rounds 3 [flags]
#
# with this build: every study at every -j in both builds, alternately, the
# order swapped every round, medians and ratios printed, every run in
# --out/versus.csv (give --rounds to change the 3). The machine and the
# load average before and after come with it, since every figure is a wall
# time. scripts/perfdocs.sh runs it for docs/performance.md. Examples:
#
#   scripts/versus.sh 98fff97 --scaling-studies large --scaling-j 2
#   scripts/versus.sh 98fff97 --scaling-studies paper --scaling-j 1
#   scripts/versus.sh 3d65edf --scaling-studies paper --scaling-j 1 --scaling-methods fuzzycart
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
rev=${1:?usage: scripts/versus.sh REV [speed --scaling flags]}
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/fgrtbench-versus.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "building this work tree and $rev" >&2
deploy/build.sh "$work/this"
build_rev "$rev" "$work/base"

rounds=(--rounds 3)
for a in "$@"; do case "$a" in --rounds|--rounds=*) rounds=() ;; esac; done
echo "machine: $(machine_line)"
echo "load average (1/5/15 min) before: $(load_now)"
echo "command: fgrtbench speed --scaling --versus <$rev> ${rounds[*]} $*"
"$work/this" speed --scaling --versus "$work/base" "${rounds[@]}" "$@"
echo "load average (1/5/15 min) after: $(load_now)"
