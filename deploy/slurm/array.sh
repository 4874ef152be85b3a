#!/bin/bash
# One shard of a fgrtbench study, as a task of a Slurm job array.
#
#   sbatch --array=0-7 deploy/slurm/array.sh SPEC OUTDIR 8
#
# normally through submit.sh, which also chains the merge and report job.
# Task SLURM_ARRAY_TASK_ID runs shard SLURM_ARRAY_TASK_ID of SHARDS (the
# third argument, the same in every task and resubmit) into OUTDIR/shards/<i>.
# Re-running a task (sbatch --array=2 ... after a failure) resumes that
# directory: finished units are not run again.
#
# Environment: FGRTBENCH (the binary; default fgrtbench on PATH),
# FGRT_DATA_MIRROR or FGRT_CACHE_DIR as for any fgrtbench run.
#SBATCH --job-name=fgrtbench
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
set -euo pipefail

if [ $# -ne 3 ] || [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "usage: sbatch --array=0-<N-1> $0 SPEC OUTDIR N (run as a Slurm job array task)" >&2
  exit 2
fi
spec=$1 out=$2 shards=$3
fgrtbench=${FGRTBENCH:-fgrtbench}

echo "fgrtbench shard ${SLURM_ARRAY_TASK_ID}/${shards} of $spec on $(hostname) (job ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID})"
exec "$fgrtbench" run --spec "$spec" --shard-count "$shards" \
  --out "$out/shards/$SLURM_ARRAY_TASK_ID" -j "${SLURM_CPUS_PER_TASK:-1}"
