#!/bin/sh
# Replay a run's unit schedule on simulated workers: how long the units
# would take on W workers if they were handed out in canonical order, in
# the order fgrtbench hands them out (largest training cells first,
# bench/runner/order.go), and longest measured first, against the ideal
# (their total time / W). The run must have written its unit times:
#
#   FGRTBENCH_UNIT_TIMES=times.csv fgrtbench reproduce --no-report -j 1 --out DIR
#   scripts/replay-schedule.sh times.csv [W ...]     (default W: 1 2 4 8 16 32)
#
# Each unit keeps the wall time it had in that run (at -j 1, its serial
# time); a simulated worker takes the next unit as soon as it is free,
# which is what the runner's workers do. The replay leaves out what the
# real run adds: the serial work before the first unit and after the last,
# the threads that idle workers lend to the loops of the units still
# running (which shortens a real tail), and a machine's shared caches and
# memory bandwidth. docs/performance.md#scaling compares it with runs on a
# 16-core machine.
set -eu
file=${1:?usage: scripts/replay-schedule.sh UNIT_TIMES.csv [WORKERS ...]}
shift
[ -f "$file" ] || { echo "replay-schedule.sh: $file: no such file" >&2; exit 2; }
workers=${*:-1 2 4 8 16 32}
head -n 1 "$file" | grep -q '^started,canonical,.*,training_cells,start_seconds,wall_seconds,failed$' ||
  { echo "replay-schedule.sh: $file is not a unit-times file (FGRTBENCH_UNIT_TIMES)" >&2; exit 2; }

# The columns after the dataset and method (which may hold commas) are
# taken from the end of each line: canonical, cells, wall.
cols() { tail -n +2 "$file" | awk -F, '{ print $2, $(NF-3), $(NF-1) }'; }
canonical=$(cols | sort -k1,1n)
largest=$(cols | sort -k2,2nr -k1,1n)
longest=$(cols | sort -k3,3gr -k1,1n)

makespan() { # makespan W < "canonical cells wall" lines
  awk -v w="$1" '{ m = 1; for (i = 2; i <= w; i++) if (t[i] < t[m]) m = i; t[m] += $3 }
    END { s = 0; for (i = 1; i <= w; i++) if (t[i] > s) s = t[i]; printf "%.2f", s }'
}
total=$(cols | awk '{ s += $3 } END { printf "%.4f", s }')
units=$(cols | wc -l)
longestUnit=$(printf '%s\n' "$longest" | awk 'NR == 1 { printf "%.2f", $3 }')
echo "$units units, $total s in all, the longest $longestUnit s ($file)"
printf '%8s %11s %14s %15s %9s\n' workers canonical "largest first" "longest first" ideal
for w in $workers; do
  case $w in '' | *[!0-9]* | 0) echo "replay-schedule.sh: workers must be whole numbers above 0, not $w" >&2; exit 2 ;; esac
  printf '%8d %10ss %13ss %14ss %8ss\n' "$w" \
    "$(printf '%s\n' "$canonical" | makespan "$w")" "$(printf '%s\n' "$largest" | makespan "$w")" \
    "$(printf '%s\n' "$longest" | makespan "$w")" "$(awk -v t="$total" -v w="$w" 'BEGIN { printf "%.2f", t / w }')"
done
