#!/usr/bin/env bash
# This checkout's build against an earlier revision's, side by side:
#
#   scripts/versus.sh REV [speed --scaling flags]
#
# builds fgrtbench from the work tree and from REV (a temporary git
# worktree, removed afterwards), then runs
#
#   fgrtbench speed --scaling --versus <REV's binary> [flags]
#
# with this build: every study at every -j in both builds, alternately,
# --rounds times (default here 3), medians and ratios printed, every run in
# --out/versus.csv. The load average before and after is printed with it,
# since every figure is a wall time. docs/performance.md#builds-side-by-side
# gives the commands whose output it quotes. Examples:
#
#   scripts/versus.sh 98fff97 --scaling-studies large --scaling-j 2
#   scripts/versus.sh 98fff97 --scaling-studies paper --scaling-j 1
#   scripts/versus.sh 3d65edf --scaling-studies paper --scaling-j 1 --scaling-methods fuzzycart
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/versus.sh REV [speed --scaling flags]}
shift
base=$(git rev-parse --verify -q "$rev^{commit}") || { echo "scripts/versus.sh: $rev is not a commit here" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fgrtbench-versus.XXXXXX")
cleanup() {
  git worktree remove --force "$work/src" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "building this work tree and $rev ($base)" >&2
deploy/build.sh "$work/this"
git worktree add -q --detach "$work/src" "$base"
# An old revision may predate deploy/build.sh: then a plain build.
if [ -f "$work/src/deploy/build.sh" ]; then
  (cd "$work/src" && REVISION="$base" VERSION="$rev" MODIFIED=false sh deploy/build.sh "$work/base")
else
  (cd "$work/src" && CGO_ENABLED=0 go build -trimpath -o "$work/base" ./cmd/fgrtbench)
fi

rounds=(--rounds 3)
for a in "$@"; do case "$a" in --rounds|--rounds=*) rounds=() ;; esac; done
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3)"
echo "load average (1/5/15 min) before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: fgrtbench speed --scaling --versus <$rev> ${rounds[*]} $*"
"$work/this" speed --scaling --versus "$work/base" "${rounds[@]}" "$@"
echo "load average (1/5/15 min) after: $(cut -d' ' -f1-3 /proc/loadavg)"
