#!/bin/bash
# End-to-end proof of deploy/slurm on a throwaway single-node Slurm cluster.
#
#   deploy/slurm/e2e.sh [--install] [--keep]
#
# It builds fgrtbench, starts munged, slurmctld and slurmd on 127.0.0.1
# with a generated configuration in a temporary directory (nothing system-
# wide is touched), and then:
#   1. runs the README's sweep example (the block under "# sweep.yaml") on
#      this machine, the reference;
#   2. submits the same spec with deploy/slurm/submit.sh as a 3-task array
#      plus the dependent merge + report job;
#   3. kills one array task with SIGKILL while it runs, checks that the merge
#      job was cancelled and no merged result exists;
#   4. resubmits that index alone (submit.sh --array 1 --wait), checks that it
#      resumed rather than re-ran its finished units, and that a resubmission
#      with another shard count is refused;
#   5. checks that the merged results.csv equals the reference byte for byte
#      (timing columns aside) and that REPORT.md covers every dataset and
#      method and is not marked partial.
# The daemons it started are stopped on exit, whatever happens.
#
# Needs: Debian's slurm-wlm and munge (Slurm 22.05 in bookworm), go, and the
# KEEL files for wine, pima and saheart (FGRT_DATA_MIRROR, default
# ../shared/datasets/raw as run.sh; else they are downloaded). Missing
# packages are installed with apt-get only when asked (--install) or when
# running as root (a CI container); otherwise it says what to install.
# Run as root, or as a user that may start slurmd (jobs then run as that
# user). --keep keeps the temporary directory (logs, configuration).
# Environment: FGRT_E2E_TIMEOUT (seconds for each wait, default 120).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)

install=0 keep=0
for a in "$@"; do
  case "$a" in
    --install) install=1 ;;
    --keep) keep=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) echo "e2e.sh: unknown argument $a (see --help)" >&2; exit 2 ;;
  esac
done
timeout_s=${FGRT_E2E_TIMEOUT:-120}

say() { printf '== %s\n' "$*"; }
fail() {
  echo "e2e.sh: FAIL: $*" >&2
  exit 1
}

# --- packages -------------------------------------------------------------
missing=()
for cmd in slurmctld slurmd sbatch squeue scontrol scancel sinfo munged; do
  command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" = 1 ] || [ "$(id -u)" = 0 ]; then
    say "installing slurm-wlm and munge (missing: ${missing[*]})"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
  else
    fail "missing ${missing[*]}: install Debian's slurm-wlm and munge (sudo apt-get install slurm-wlm munge) or rerun with --install"
  fi
fi
command -v go >/dev/null || fail "go not found (needed to build fgrtbench)"

# --- scratch directory and cleanup ----------------------------------------
tmp=$(mktemp -d /tmp/fgrtbench-e2e.XXXXXX)
chmod 711 "$tmp" # munged wants every directory above its socket searchable
pids=() names=()
cleanup() {
  status=$?
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$status" != 0 ] || [ "$keep" = 1 ]; then
    echo "e2e.sh: kept $tmp (logs in $tmp/log, study in $tmp/study)" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for DESCRIPTION COMMAND...: retry COMMAND until it succeeds or the
# timeout passes.
wait_for() {
  local what=$1 deadline=$(($(date +%s) + timeout_s))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out after ${timeout_s}s waiting for $what"
    for i in "${!pids[@]}"; do
      kill -0 "${pids[i]}" 2>/dev/null || fail "${names[i]} exited while waiting for $what; see $tmp/log/${names[i]}.*"
    done
    sleep 0.2
  done
}

free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  fail "no free TCP port found"
}

# --- fgrtbench and data -----------------------------------------------------
say "build fgrtbench"
mkdir -p "$tmp/bin" "$tmp/log" "$tmp/cache"
CGO_ENABLED=0 go build -o "$tmp/bin/fgrtbench" ./cmd/fgrtbench
export FGRTBENCH="$tmp/bin/fgrtbench" FGRT_CACHE_DIR="$tmp/cache"
if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi
# The README's sweep example, as a user would copy it.
awk '/^# sweep.yaml/ {on = 1} on && /^```/ {exit} on' README.md > "$tmp/sweep.yaml"
grep -q '^name: ' "$tmp/sweep.yaml" || fail "README.md has no sweep example under '# sweep.yaml'"
datasets=$(sed -n 's/^datasets: \[\(.*\)\]/\1/p' "$tmp/sweep.yaml" | tr -d ' ')
"$FGRTBENCH" fetch ${datasets//,/ } >/dev/null 2>"$tmp/log/fetch.err" || fail "fetching $datasets: $(tail -1 "$tmp/log/fetch.err")"

say "reference: the sweep on this machine"
"$FGRTBENCH" run --spec "$tmp/sweep.yaml" --out "$tmp/single" -j 2 --no-report 2>"$tmp/log/single.err" ||
  fail "single-machine run: $(tail -1 "$tmp/log/single.err")"
rows=$(($(grep -c . "$tmp/single/results.csv") - 1))

# --- a single-node cluster on loopback ------------------------------------
say "start munged, slurmctld, slurmd in $tmp"
user=$(id -un)
mkdir -p "$tmp/munge" "$tmp/munge-run" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 755 "$tmp/munge-run"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged -F --key-file="$tmp/munge/munge.key" --socket="$tmp/munge-run/munge.sock" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" \
  >"$tmp/log/munged.out" 2>&1 &
pids+=($!) names+=(munged)
wait_for "munged (log: $tmp/log/munged.log)" test -S "$tmp/munge-run/munge.sock"

host=$(hostname -s)
ncpu=$(nproc)
ctld_port=$(free_port)
slurmd_port=$(free_port)
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=fgrte2e
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CryptoType=crypto/munge
AuthInfo=socket=$tmp/munge-run/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
NodeName=e2e NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$ncpu State=UNKNOWN
PartitionName=e2e Nodes=e2e Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!) names+=(slurmctld)
wait_for "slurmctld (log: $tmp/log/slurmctld.log)" scontrol ping
slurmd -D -N e2e -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!) names+=(slurmd)
node_idle() { sinfo -h -n e2e -o %T | grep -qx idle; }
wait_for "node e2e to be idle (log: $tmp/log/slurmd.log)" node_idle

# --- the study as an array plus merge, one task killed ---------------------
shards=3 victim=1
say "submit the sweep as $shards shards plus the merge + report job"
deploy/slurm/submit.sh -n "$shards" --cpus 1 --time 10 "$tmp/sweep.yaml" "$tmp/study" | tee "$tmp/log/submit1.out"
array_job=$(sed -n 's/^submitted array job \([0-9]*\).*/\1/p' "$tmp/log/submit1.out")
merge_job=$(sed -n 's/^merge job \([0-9]*\).*/\1/p' "$tmp/log/submit1.out")
[ -n "$array_job" ] && [ -n "$merge_job" ] || fail "submit.sh printed no job ids"

victim_csv="$tmp/study/shards/$victim/results.csv"
# The task's fgrtbench process, by the pids Slurm tracks for the task: it is
# killed with SIGKILL, as a crash or the OOM killer would (a Slurm cancel
# sends SIGTERM first, which fgrtbench survives gracefully).
victim_pid=""
find_victim() {
  local id p
  id=$(squeue -h -j "${array_job}_$victim" -o %A 2>/dev/null) || return 1
  [ -n "$id" ] || return 1
  for p in $(scontrol listpids "$id" 2>/dev/null | awk 'NR > 1 {print $1}'); do
    if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = fgrtbench ]; then
      victim_pid=$p
      return 0
    fi
  done
  return 1
}
has_rows() {
  local n
  n=$(grep -c . "$victim_csv" 2>/dev/null) || true
  [ "${n:-0}" -ge 2 ] # the header and a row
}
deadline=$(($(date +%s) + timeout_s))
until [ -n "$victim_pid" ] && has_rows; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "task ${array_job}_$victim did not start writing rows in ${timeout_s}s (logs: $tmp/study/logs)"
  [ -n "$victim_pid" ] || find_victim || true
  sleep 0.01
done
kill -KILL "$victim_pid" || fail "task ${array_job}_$victim ended before it could be killed; rerun"
say "killed task ${array_job}_$victim (pid $victim_pid, SIGKILL) after its first rows"
array_done() { [ -z "$(squeue -h -j "$array_job" 2>/dev/null)" ]; }
wait_for "array job $array_job to end" array_done
victim_rows=$(($(grep -c . "$victim_csv") - 1))
job_state() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
victim_state=$(job_state "${array_job}_$victim")
[ "$victim_state" = FAILED ] || fail "killed task ${array_job}_$victim is $victim_state, want FAILED"
merge_cancelled() { [ "$(job_state "$merge_job")" = CANCELLED ]; }
wait_for "merge job $merge_job to be cancelled after a failed shard (--kill-on-invalid-dep)" merge_cancelled
merge_state=CANCELLED
[ ! -e "$tmp/study/merged/results.csv" ] || fail "a merged result exists although shard $victim failed"
say "shard $victim has $victim_rows rows after the kill; merge job $merge_job $merge_state (no merged result)"

say "resubmit index $victim alone and wait for the merge + report"
deploy/slurm/submit.sh -n "$shards" --cpus 1 --time 10 --array "$victim" --wait "$tmp/sweep.yaml" "$tmp/study" |
  tee "$tmp/log/submit2.out" || fail "resubmitted index $victim or its merge failed; logs: $tmp/study/logs"
# The manifest's top-level counts describe the latest invocation.
resumed=$(sed -n 's/^  "units_resumed": \([0-9]*\).*/\1/p' "$tmp/study/shards/$victim/manifest.json")
ran=$(sed -n 's/^  "units_ran": \([0-9]*\).*/\1/p' "$tmp/study/shards/$victim/manifest.json")
[ "${resumed:-0}" -gt 0 ] || fail "the resubmitted shard resumed no units (ran $ran): finished units were run again"
final_rows=$(($(grep -c . "$victim_csv") - 1))
[ "$victim_rows" -lt "$final_rows" ] || fail "the kill came too late: shard $victim already had all its $final_rows rows"
say "resubmitted shard $victim: $resumed units resumed, $ran run ($victim_rows of $final_rows rows were there before)"

# A resubmission with another shard count would not add up: refused before
# anything is queued.
if deploy/slurm/submit.sh -n $((shards + 1)) --array 0 "$tmp/sweep.yaml" "$tmp/study" >"$tmp/log/submit3.out" 2>&1 ||
  ! grep -q "first submitted with" "$tmp/log/submit3.out"; then
  fail "submit.sh accepted a different shard count for $tmp/study: $(cat "$tmp/log/submit3.out")"
fi

# --- the merged results are the single-machine results ---------------------
say "compare merged results with the single-machine run (timing columns aside)"
# untimed FILE: the CSV file without its timing columns.
. scripts/untimed.sh
merged="$tmp/study/merged/results.csv"
[ -f "$merged" ] || fail "no merged results at $merged"
untimed "$tmp/single/results.csv" >"$tmp/single.untimed"
untimed "$merged" >"$tmp/merged.untimed"
cmp -s "$tmp/single.untimed" "$tmp/merged.untimed" ||
  fail "merged results differ from the single-machine run: diff $tmp/single.untimed $tmp/merged.untimed"

# Complete = the same tables as the single-machine run's report (timing
# columns aside), every dataset named, and not marked partial.
report="$tmp/study/merged/report/REPORT.md"
[ -s "$report" ] || fail "no report at $report"
! grep -qi 'partial' "$report" || fail "$report says it is partial: $(grep -i -m1 partial "$report")"
! grep -q '"partial"' "$tmp/study/merged/manifest.json" || fail "the merged manifest is marked partial"
"$FGRTBENCH" report --results "$tmp/single" >/dev/null 2>"$tmp/log/single-report.err" ||
  fail "report of the single-machine run: $(tail -1 "$tmp/log/single-report.err")"
tables=0
for f in "$tmp/single/report/"*.csv; do
  name=$(basename "$f")
  [ -f "$tmp/study/merged/report/$name" ] || fail "the merged report lacks the table $name"
  cmp -s <(untimed "$f") <(untimed "$tmp/study/merged/report/$name") ||
    fail "report table $name of the merged shards differs from the single-machine run's (timing columns aside)"
  tables=$((tables + 1))
done
[ "$tables" -gt 0 ] || fail "the single-machine report has no tables to compare"
for d in ${datasets//,/ }; do
  grep -q "$d" "$report" || fail "$report does not mention dataset $d"
done
elapsed=$(($(date +%s) - start))
say "PASS in ${elapsed}s: $rows rows from $shards shards (shard $victim killed after $victim_rows rows and resumed) equal the single-machine run; report complete ($tables tables identical)"
