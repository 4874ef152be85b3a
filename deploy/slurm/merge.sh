#!/bin/bash
# Merge the shards of a fgrtbench study and render its report, as the Slurm
# job that submit.sh chains after the array (--dependency=afterok).
#
#   sbatch --dependency=afterok:<array job> deploy/slurm/merge.sh OUTDIR N
#
# Reads OUTDIR/shards/0..N-1 and writes OUTDIR/merged/results.csv and
# OUTDIR/merged/report/REPORT.md. A missing shard is an error, never a
# smaller report.
#SBATCH --job-name=fgrtbench-merge
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: sbatch $0 OUTDIR N" >&2
  exit 2
fi
out=$1 shards=$2
fgrtbench=${FGRTBENCH:-fgrtbench}

inputs=()
for ((i = 0; i < shards; i++)); do
  if [ ! -f "$out/shards/$i/results.csv" ]; then
    echo "merge: shard $i of $shards has no results ($out/shards/$i/results.csv); resubmit it: submit.sh --array $i ..." >&2
    exit 1
  fi
  inputs+=("$out/shards/$i")
done
mkdir -p "$out/merged"
"$fgrtbench" merge --out "$out/merged" "${inputs[@]}"
"$fgrtbench" report --results "$out/merged"
