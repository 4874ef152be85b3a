#!/bin/bash
# Submit a fgrtbench study to Slurm with one command: a job array of N
# shards, and a merge + report job chained after it (--dependency=afterok),
# so that OUTDIR/merged/report/REPORT.md appears when every shard succeeded.
#
#   deploy/slurm/submit.sh [options] SPEC OUTDIR [-- SBATCH_OPTIONS...]
#
#   -n, --shards N   number of shards (default 8); keep the same N for a study
#   --array LIST     indices to (re)submit (default 0-(N-1)), e.g. 2, or 1,5, or 0-6:2
#   --cpus C         CPUs per shard task, passed to -j (default 2)
#   --time T         time limit per shard task (default 02:00:00)
#   --wait           return only when the merge job has ended (its exit status)
#   -- ...           further sbatch options for both jobs (--partition=..., --account=...)
#
# Shard i runs into OUTDIR/shards/i and resumes it when run again, so after
# a failed task rerun the same command with --array <i>: only that index is
# submitted, it skips the units it had finished, and a new merge job follows.
# A failed task cancels the merge job (--kill-on-invalid-dep=yes); a merge
# of incomplete shards is refused. Logs go to OUTDIR/logs.
#
# Environment: FGRTBENCH (default: fgrtbench on PATH), FGRT_DATA_MIRROR,
# FGRT_CACHE_DIR (exported to the jobs).
set -euo pipefail

usage() { awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; }
die() { echo "submit.sh: $*" >&2; exit 2; }

shards=8 array="" cpus=2 time=02:00:00 wait=0
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--shards) shards=${2:?}; shift 2 ;;
    --array) array=${2:?}; shift 2 ;;
    --cpus) cpus=${2:?}; shift 2 ;;
    --time) time=${2:?}; shift 2 ;;
    --wait) wait=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) args+=("$1"); shift ;;
  esac
done
[ ${#args[@]} -eq 2 ] || die "need SPEC and OUTDIR (see --help)"
case "$shards" in ''|*[!0-9]*|0) die "--shards $shards: want a positive integer" ;; esac
spec=$(realpath -e "${args[0]}") || die "spec ${args[0]} not found"
out=$(realpath -m "${args[1]}")
array=${array:-0-$((shards - 1))}
here=$(cd "$(dirname "$0")" && pwd)

fgrtbench=${FGRTBENCH:-$(command -v fgrtbench || true)}
[ -n "$fgrtbench" ] || die "fgrtbench is not on PATH: in a checkout run 'go build -o ~/bin/fgrtbench ./cmd/fgrtbench' (with ~/bin on PATH) or set FGRTBENCH=/path/to/fgrtbench"
fgrtbench=$(realpath -e "$fgrtbench") || die "FGRTBENCH=$fgrtbench does not exist"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm submit host"

# Shard i means "units u with u mod N = i": every submission into OUTDIR
# must use the same spec and N, or its shard directories would not add up.
if [ -f "$out/submissions.log" ]; then
  IFS=$'\t' read -r _ prev_spec prev_shards _ < <(head -1 "$out/submissions.log")
  [ "$prev_spec" = "$spec" ] && [ "$prev_shards" = "shards=$shards" ] ||
    die "$out was first submitted with $prev_spec and $prev_shards; resubmit with the same spec and --shards, or use a new OUTDIR"
fi
mkdir -p "$out/logs" "$out/shards"
printf '%s\t%s\tshards=%s\tarray=%s\n' "$(date -u +%FT%TZ)" "$spec" "$shards" "$array" >> "$out/submissions.log"

export FGRTBENCH="$fgrtbench"
array_job=$(sbatch --parsable --export=ALL --array="$array" --cpus-per-task="$cpus" --time="$time" \
  --output="$out/logs/shard-%a-%A.out" "$@" "$here/array.sh" "$spec" "$out" "$shards")
array_job=${array_job%%;*}
merge_opts=(--parsable --export=ALL --dependency=afterok:"$array_job" --kill-on-invalid-dep=yes
  --output="$out/logs/merge-%j.out")
[ "$wait" = 1 ] && merge_opts+=(--wait)
echo "submitted array job $array_job: shards $array of $shards of $spec into $out/shards"
echo "merge and report job chained after it (afterok:$array_job); report: $out/merged/report/REPORT.md"
merge_job=$(sbatch "${merge_opts[@]}" "$@" "$here/merge.sh" "$out" "$shards") || {
  status=$?
  [ "$wait" = 1 ] && echo "merge job ended with status $status; see $out/logs" >&2
  exit "$status"
}
echo "merge job ${merge_job%%;*}"
