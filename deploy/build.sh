#!/bin/sh
# Build a static fgrtbench binary that names its build even outside a
# checkout: the version, VCS revision and modified flag are set by the linker
# (bench/manifest reads them first), so `fgrtbench version` and every
# manifest.json carry them. The container recipe (deploy/Dockerfile) runs
# this script; run it yourself for a release archive or a cluster binary.
#
#   deploy/build.sh OUTPUT
#
# In a git checkout the values come from git; elsewhere (a container build
# context has no .git) set VERSION, REVISION and MODIFIED=true|false.
set -eu
out=${1:?usage: deploy/build.sh OUTPUT}
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
cd "$(dirname "$0")/.."

if [ -z "${REVISION:-}" ] && git rev-parse --verify -q HEAD >/dev/null 2>&1; then
  REVISION=$(git rev-parse HEAD)
  if [ -z "$(git status --porcelain --untracked-files=no)" ]; then MODIFIED=false; else MODIFIED=true; fi
  VERSION=${VERSION:-$(git describe --tags --always --dirty)}
fi
if [ -z "${REVISION:-}" ]; then
  echo "deploy/build.sh: no git checkout here: set REVISION (and VERSION, MODIFIED) so the binary names its build" >&2
  exit 2
fi
pkg=github.com/fgrtbench/fgrtbench/bench/manifest
CGO_ENABLED=0 go build -trimpath -buildvcs=false \
  -ldflags "-s -w -X $pkg.linkVersion=${VERSION:-(devel)} -X $pkg.linkRevision=$REVISION -X $pkg.linkModified=${MODIFIED:-false}" \
  -o "$out" ./cmd/fgrtbench
