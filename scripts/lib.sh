# Shell functions shared by the measuring scripts (speed.sh, versus.sh,
# perfdocs.sh); sourced, not run.

# splice FILE BLOCK: replace the lines of FILE from the one that starts with
# BLOCK's first line (the begin marker) to the one that starts with its last
# line (the end marker) by BLOCK, through a temporary file renamed over FILE;
# a FILE without both markers is left as it is.
splice() {
  local file=$1 block=$2 begin end tmp
  begin=$(head -n 1 "$block")
  end=$(tail -n 1 "$block")
  tmp=$(mktemp "$file.XXXXXX")
  if ! awk -v begin="$begin" -v end="$end" -v block="$block" '
      state == 0 && index($0, begin) == 1 {
        while ((getline line < block) > 0) print line
        state = 1; next
      }
      state == 1 { if (index($0, end) == 1) state = 2; next }
      { print }
      END { exit state == 2 ? 0 : 1 }' "$file" > "$tmp"; then
    rm -f "$tmp"
    echo "${0##*/}: $file has no $begin ... $end block; nothing rewritten" >&2
    return 1
  fi
  chmod --reference="$file" "$tmp" 2>/dev/null || true
  mv "$tmp" "$file"
}

# build_rev REV OUT: builds fgrtbench as of commit REV into OUT, through a
# temporary git worktree that it removes; deploy/build.sh names the
# revision in the binary (a revision older than that script gets a plain
# static build).
build_rev() {
  local rev=$1 out=$2 commit src
  commit=$(git rev-parse --verify -q "$rev^{commit}") || { echo "${0##*/}: $rev is not a commit here" >&2; return 2; }
  src=$(mktemp -d "${TMPDIR:-/tmp}/fgrtbench-rev.XXXXXX")
  local rc=0
  # Each step's failure is caught (|| rc=...), so that a caller under
  # set -e still removes the worktree, then fails.
  git worktree add -q --detach "$src/tree" "$commit" || { rm -rf "$src"; return 2; }
  if [ -f "$src/tree/deploy/build.sh" ]; then
    (cd "$src/tree" && REVISION="$commit" VERSION="$rev" MODIFIED=false sh deploy/build.sh "$out") || rc=$?
  else
    (cd "$src/tree" && CGO_ENABLED=0 go build -trimpath -o "$out" ./cmd/fgrtbench) || rc=$?
  fi
  [ "$rc" = 0 ] || echo "${0##*/}: building $rev failed" >&2
  git worktree remove --force "$src/tree" >/dev/null 2>&1 || true
  rm -rf "$src"
  return $rc
}

# machine_line: the machine, its memory and Go, in one line.
machine_line() {
  echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3)"
}

# quietly LOG COMMAND...: runs COMMAND with its output in LOG; when it
# fails, says so with LOG's last lines, and fails.
quietly() {
  local log=$1 rc=0
  shift
  "$@" > "$log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "${0##*/}: $* failed (exit $rc); the end of its output:" >&2
    tail -n 5 "$log" >&2
  fi
  return "$rc"
}

# load_now: the load average (1/5/15 min).
load_now() { cut -d' ' -f1-3 /proc/loadavg | sed 's| | / |g'; }
