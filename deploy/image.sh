#!/bin/sh
# Build the fgrtbench container image from this checkout with docker or
# podman (ENGINE=...), stamped with the checkout's version and revision.
#
#   deploy/image.sh [TAG]        # default tag fgrtbench:<version>
set -eu
cd "$(dirname "$0")/.."
engine=${ENGINE:-$(command -v docker || command -v podman || true)}
[ -n "$engine" ] || { echo "deploy/image.sh: neither docker nor podman found (set ENGINE)" >&2; exit 2; }
revision=$(git rev-parse HEAD)
version=$(git describe --tags --always --dirty)
if [ -z "$(git status --porcelain --untracked-files=no)" ]; then modified=false; else modified=true; fi
tag=${1:-fgrtbench:$version}
"$engine" build -f deploy/Dockerfile -t "$tag" \
  --build-arg VERSION="$version" --build-arg REVISION="$revision" --build-arg MODIFIED="$modified" .
echo "built $tag ($revision)"
