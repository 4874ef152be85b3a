#!/usr/bin/env bash
# Regenerate every measured figure of docs/performance.md and
# docs/large-data.md on this machine, from this work tree's build, in one
# run (about an hour on 2 cores; run it on a quiet machine):
#
#   scripts/perfdocs.sh [--base REV] [--fuzzycart-base REV] [--rounds N] [--quick]
#
# 1. this build against --base (default 98fff97, the build before the
#    parallel fits), each study in both builds alternately, --rounds times
#    (default 3), the order swapped every round, medians reported
#    (fgrtbench speed --scaling --versus):
#      - the 10^6 x 20 study at -j 2: wall time and peak memory;
#      - the paper's study (the base build's methods) at -j 1 on one core
#        (GOMAXPROCS=1): every learner's serial fit seconds (summed from
#        results.csv), the study's wall and CPU time;
#      - FuzzyCART's paper study the same way against --fuzzycart-base
#        (default 3d65edf, the last build before internal/par: 98fff97
#        has no FuzzyCART);
#      - the paper's study at -j 2, as ./run.sh runs it, and its report;
#      - one FGRT fit on 10^6 x 10 rows at one thread (fgrtbench runtime);
# 2. this build alone: CART on 1 and 2 threads on the three splits of the
#    authors' runtime data at 4x10^5 rows and on the 10^6 x 20 data; the
#    10^6 study's peak memory at -j 16 and -j 64;
# 3. scripts/speed.sh --readme: the comparison with scikit-learn and Weka
#    (when installed; scripts/speed.sh --install installs them), ./run.sh,
#    the large-data reading and the external learners.
#
# Each figure is printed with its command and the load average before and
# after it. The blocks between the builds:begin/builds:end markers of
# docs/performance.md and the large:begin/large:end markers of
# docs/large-data.md are replaced (scripts/lib.sh's splice); step 3
# replaces the speed:begin/speed:end block. --quick shrinks every
# measurement (2x10^4 rows, one round, two methods, no step 3) and prints
# the two blocks instead of splicing them: a check of this script.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

base=98fff97
fbase=3d65edf
rounds=3
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --fuzzycart-base) fbase=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "perfdocs.sh: unknown argument $1 (use --base REV, --fuzzycart-base REV, --rounds N, --quick)" >&2; exit 2 ;;
  esac
done
case "$rounds" in '' | *[!0-9]* | 0) echo "perfdocs.sh: --rounds $rounds is not a positive integer" >&2; exit 2 ;; esac

# The paper study's methods are the base build's (this build's default
# study also runs FuzzyCART, which 98fff97 lacks); their variants come with
# them.
large_rows=1000000 fgrt_rows=1000000 cart_rows=400000 paper_methods=fgrt,fgrt-opt,cart,c45-entropy,c45,ripper,fga,majority
if [ "$quick" = 1 ]; then
  large_rows=20000 fgrt_rows=20000 cart_rows=20000 rounds=1 paper_methods=cart,ripper
fi
if [ -z "${FGRT_DATA_MIRROR:-}" ] && [ -d ../shared/datasets/raw ]; then
  export FGRT_DATA_MIRROR="$(cd ../shared/datasets/raw && pwd)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fgrtbench-perfdocs.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "perfdocs: $*" >&2; }

say "building this work tree, $base and $fbase"
deploy/build.sh "$work/this"
build_rev "$base" "$work/base"
build_rev "$fbase" "$work/fbase"
this_version=$("$work/this" version | head -n 1)
data="$work/data" # the 10^6 x 20 CSV, generated once, reused by every step

# measure NAME COMMAND...: runs COMMAND, its stdout into $work/NAME.txt, and
# the load before and after into $work/NAME.load.
measure() {
  local name=$1
  shift
  say "$name: $*"
  local before
  before=$(load_now)
  "$@" > "$work/$name.txt"
  echo "load average (1/5/15 min) $before before, $(load_now) after" > "$work/$name.load"
}

# median: the median of the numbers on stdin, one per line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# fits FILE: "trial seconds" per row of a runtime.csv.
fits() { tail -n +2 "$1" | awk -F, '{ print $5, $6 }'; }

# --- 1. builds side by side
measure large "$work/this" speed --scaling --scaling-studies large --scaling-j 2 --scaling-rows "$large_rows" \
  --scaling-data "$data" --versus "$work/base" --rounds "$rounds" --out "$work/large-out"
# Serial: one core for both builds (GOMAXPROCS=1), since the base build's
# FGA evaluated its population on GOMAXPROCS goroutines whatever -j said.
measure serial env GOMAXPROCS=1 "$work/this" speed --scaling --scaling-studies paper --scaling-j 1 --scaling-methods "$paper_methods" \
  --versus "$work/base" --rounds "$rounds" --out "$work/serial-out"
measure fuzzy env GOMAXPROCS=1 "$work/this" speed --scaling --scaling-studies paper --scaling-j 1 --scaling-methods fuzzycart \
  --versus "$work/fbase" --rounds "$rounds" --out "$work/fuzzy-out"
# As ./run.sh runs it, on every core, with its report.
measure paper "$work/this" speed --scaling --scaling-studies paper --scaling-j 2 --scaling-methods "$paper_methods" \
  --versus "$work/base" --rounds "$rounds" --out "$work/paper-out"

fgrt_fits() {
  local r b order
  for r in $(seq "$rounds"); do
    order="this base"
    [ $((r % 2)) = 0 ] && order="base this"
    for b in $order; do
      quietly "$work/fgrt-$b-$r.log" "$work/$b" runtime --methods fgrt --samples "$fgrt_rows" --features "" --trials 3 --out "$work/fgrt-$b-$r"
      fits "$work/fgrt-$b-$r/runtime.csv" | sed "s/^/$b /"
    done
  done
}
measure fgrt fgrt_fits

# speedup_table FILE: the table of CART's -j 1 and -j 2 fits per split
# (trial) from cart_rounds' lines: medians, and the median of the rounds'
# ratios with every round's.
speedup_table() {
  local t a b each med
  echo "| split (trial) | -j 1 | -j 2 | speed-up | rounds' speed-ups |"
  echo "|---:|---:|---:|---:|---|"
  for t in 0 1 2; do
    a=$(awk -v t=$t '$1 == 1 && $3 == t { print $4 }' "$1" | median)
    b=$(awk -v t=$t '$1 == 2 && $3 == t { print $4 }' "$1" | median)
    each=$(awk -v t=$t '$3 == t { s[$2, $1] = $4; r[$2] = 1 } END { for (k in r) if (s[k, 2] > 0) printf "%.2f\n", s[k, 1] / s[k, 2] }' "$1" | sort -g)
    med=$(echo "$each" | median)
    echo "| $t | $(secs "$a") | $(secs "$b") | $(awk -v m="$med" 'BEGIN { printf "%.2f×", m }') | $(echo $each | sed 's/ /, /g') |"
  done
}

# --- 2. this build alone
# cart_rounds NAME RUNTIME-ARGS...: CART's runtime fits at -j 1 and -j 2,
# $rounds rounds, the order swapped every round; prints "j round trial
# seconds" lines.
cart_rounds() {
  local name=$1 r j order
  shift
  for r in $(seq "$rounds"); do
    order="1 2"
    [ $((r % 2)) = 0 ] && order="2 1"
    for j in $order; do
      quietly "$work/$name-$j-$r.log" "$work/this" runtime --methods cart "$@" --trials 3 -j "$j" --out "$work/$name-$j-$r"
      fits "$work/$name-$j-$r/runtime.csv" | sed "s/^/$j $r /"
    done
  done
}
measure cart cart_rounds cart --samples "$cart_rows" --features ""

csv="$data/large-${large_rows}x20.csv"
measure cartlarge cart_rounds cartlarge --datasets "$csv" --samples "" --features ""

measure memory "$work/this" speed --scaling --scaling-studies large --scaling-j 16,64 --scaling-rows "$large_rows" \
  --scaling-data "$data" --out "$work/memory-out"

# --- the blocks
text() { printf '```text\n%s\n```\n' "$(cat "$work/$1.txt")"; }
rows_of() { printf "%'d" "$1" 2> /dev/null || echo "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "—" }'; }
secs() { awk -v s="$1" 'BEGIN { printf "%.3f s", s }'; }

perf_block="$work/perf-block.md"
{
  echo "<!-- builds:begin (generated by scripts/perfdocs.sh; do not edit) -->"
  echo "Measured by \`scripts/perfdocs.sh\` on $(date -u +%Y-%m-%d): $(machine_line). This build: $this_version. Against \`$base\` (the build before the parallel fits) and, for FuzzyCART, which \`$base\` lacks, \`$fbase\` (the last build before \`internal/par\`). Both builds static (\`deploy/build.sh\`). Each study ran $rounds times in each build, alternately, the order swapped every round; every figure is the median of its runs, and a ratio is this build's median over the other's (below 1: this build is faster or smaller)."
  echo
  echo "**Serial fits.** The paper's study (both protocols, the methods \`$base\` has, with their variants) at \`-j 1\` on one core for both builds (\`GOMAXPROCS=1\`: \`$base\`'s FGA evaluated its population on GOMAXPROCS goroutines whatever \`-j\` said, this build's within \`-j\`); fit seconds per method summed over the study's rows of \`results.csv\` (the final fits; the inner cross-validation that chose their configuration is in the study's wall and CPU time); each run followed by its report. \`GOMAXPROCS=1 fgrtbench speed --scaling --scaling-studies paper --scaling-j 1 --scaling-methods $paper_methods --versus <$base> --rounds $rounds\`; $(cat "$work/serial.load"):"
  echo
  text serial
  echo
  echo "**FuzzyCART**, the same with \`--scaling-methods fuzzycart\` against \`$fbase\`; $(cat "$work/fuzzy.load"):"
  echo
  text fuzzy
  echo
  echo "**The study as \`./run.sh\` runs it, and its report**: the same methods at \`-j 2\` on both cores, each run followed by its report (\`report --results\`, artifacts included, in a process of its own, on both cores). \`fgrtbench speed --scaling --scaling-studies paper --scaling-j 2 --scaling-methods $paper_methods --versus <$base> --rounds $rounds\`; $(cat "$work/paper.load"):"
  echo
  text paper
  echo
  echo "**One FGRT fit on $(rows_of "$fgrt_rows") rows × 10, one thread** (the runtime study's FGRT; \`fgrtbench runtime --methods fgrt --samples $fgrt_rows --features \"\" --trials 3\` in each build, $rounds rounds alternately; $(cat "$work/fgrt.load")):"
  echo
  echo "| trial | this build | $base | ratio |"
  echo "|---:|---:|---:|---:|"
  for t in 0 1 2; do
    a=$(awk -v t=$t '$1 == "this" && $2 == t { print $3 }' "$work/fgrt.txt" | median)
    b=$(awk -v t=$t '$1 == "base" && $2 == t { print $3 }' "$work/fgrt.txt" | median)
    echo "| $t | $(secs "$a") | $(secs "$b") | $(ratio "$a" "$b") |"
  done
  echo
  echo "**CART (gini) on two threads**, the authors' runtime data at $(rows_of "$cart_rows") rows (the 80 % training part of each trial's split, random_state 42 + trial): \`fgrtbench runtime --methods cart --samples $cart_rows --features \"\" --trials 3 -j 1\`, then \`-j 2\`, $rounds rounds, the order swapped every round; the speed-up is the median of the rounds' ratios ($(cat "$work/cart.load")):"
  echo
  speedup_table "$work/cart.txt"
  echo
  echo "The 10⁶ × 20 study's wall time and memory against \`$base\`, and CART's two threads on its data: [large-data.md](large-data.md#measured-on-this-build)."
  echo "<!-- builds:end -->"
} > "$perf_block"

large_block="$work/large-block.md"
{
  echo "<!-- large:begin (generated by scripts/perfdocs.sh; do not edit) -->"
  echo "Measured by \`scripts/perfdocs.sh\` on $(date -u +%Y-%m-%d): $(machine_line). This build: $this_version, against \`$base\` (the build before the parallel fits); both static (\`deploy/build.sh\`). The CSV: $(rows_of "$large_rows") rows × 20 numeric columns, 3 classes (\`paperruntime.WriteLargeCSV\`)."
  echo
  echo "**The study at \`-j 2\`, both builds** (\`reproduce --methods fgrt,cart --no-variants --protocol clean --datasets <the CSV> -j 2 --profile\`, its report included, each run a fresh process; wall time and the child's peak resident memory from its rusage), $rounds rounds alternately, medians: \`fgrtbench speed --scaling --scaling-studies large --scaling-j 2 --scaling-rows $large_rows --versus <$base> --rounds $rounds\`; $(cat "$work/large.load"):"
  echo
  text large
  echo
  echo "**At \`-j 16\` and \`-j 64\`**, this build (on this machine's 2 cores the thread demand still runs two units at a time, so these runs show what the memory budget and the demand hold, not a speed-up): \`fgrtbench speed --scaling --scaling-studies large --scaling-j 16,64 --scaling-rows $large_rows\`; $(cat "$work/memory.load"):"
  echo
  text memory
  echo
  echo "**CART on two threads on this data**: one fit on the CSV's 80 % training part per trial (\`fgrtbench runtime --methods cart --datasets <the CSV> --samples \"\" --features \"\" --trials 3 -j 1\`, then \`-j 2\`), $rounds rounds, the order swapped every round; the speed-up is the median of the rounds' ratios ($(cat "$work/cartlarge.load")):"
  echo
  speedup_table "$work/cartlarge.txt"
  echo "<!-- large:end -->"
} > "$large_block"

if [ "$quick" = 1 ]; then
  cat "$perf_block"
  echo
  cat "$large_block"
  exit
fi
splice docs/performance.md "$perf_block"
splice docs/large-data.md "$large_block"
say "docs/performance.md and docs/large-data.md: blocks replaced; now scripts/speed.sh --readme"
scripts/speed.sh --readme
