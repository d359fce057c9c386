#!/usr/bin/env bash
# The performance regression gate: counts, with valgrind's callgrind, the instructions per unit
# of every CombineEx workload's timed region at a small scale, and compares them with the
# committed baseline, Benchmarks/baseline.tsv. Instruction counts do not depend on the machine's
# speed or load, so the gate is the same on a laptop and on a busy CI machine.
#
#   Benchmarks/gate.sh                  build (release), measure, compare; exit 1 if worse
#   Benchmarks/gate.sh --reuse-build    use the release build already made (CI builds it first)
#   Benchmarks/gate.sh --update         measure and rewrite the baseline (commit it, with the
#                                       reason in the commit message)
#
# A gated workload fails when it runs more than TOLERANCE percent (5) more instructions per unit
# than its baseline; the setup sweep's entries (keys s.*) when they run more than SWEEP_TOLERANCE
# percent (30) more (see below). Workloads that hand work to other threads (the dispatch-queue hops h2 and up,
# and their floor a2: their counts vary with scheduling) are reported, not gated. A workload without a baseline
# is reported as new; run --update to add it. The comparison with swift-async-algorithms (keys x1
# and up: tasks, timed by the wall clock) is not run here at all.
#
# After the table, the sweep entries (keys s.*) that run more than 10 times e1's instructions
# are listed, for information (issue 30: each needs a reason in Docs/Performance.md).
set -euo pipefail
cd "$(dirname "$0")"

tolerance=${TOLERANCE:-5}
sweep_tolerance=${SWEEP_TOLERANCE:-30}
scale=0.05
baseline=baseline.tsv
# Keys whose counts depend on thread scheduling (the queue hops and their floor): reported only.
reported_only=" a2 h2 a3 h3 a4 h4 a5 h5 "

update=false
reuse=false
for argument in "$@"; do
  case "$argument" in
    --update) update=true ;;
    --reuse-build) reuse=true ;;
    *) echo "usage: gate.sh [--reuse-build] [--update]" >&2; exit 2 ;;
  esac
done

command -v valgrind > /dev/null \
  || { echo "gate.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

if ! $reuse; then
  # SwiftPM does not recompile the workloads when only the body of an @inlinable function of the
  # root package changed (see callgrind.sh): touch them, or the gate measures the old code.
  touch Sources/Workloads/*.swift Sources/Comparisons/*.swift
  swift build -c release --product combineex-benchmarks > /dev/null
fi
binary="$(swift build -c release --show-bin-path)/combineex-benchmarks"
[ -x "$binary" ] || { echo "gate.sh: no release build at $binary" >&2; exit 2; }

out=.build/gate
rm -rf "$out"
mkdir -p "$out"
# Valgrind 3.19 cannot read the DWARF 5 debug information Swift emits: profile a copy without it.
objcopy --strip-debug "$binary" "$out/combineex-benchmarks"

# The timed region's function, by its mangled name: --dump-after takes no wildcards.
region=$(nm "$out/combineex-benchmarks" | awk '$3 ~ /measuredRegion/ { print $3 }')
[ "$(echo "$region" | wc -w)" -eq 1 ] \
  || { echo "gate.sh: expected one measuredRegion function, found: $region" >&2; exit 2; }

# A process runs its workloads once each (after their warm-up and counting runs); callgrind
# collects only inside the timed region and writes one profile each time the region ends,
# numbered in the order the workloads run, which is the order of the `units KEY N` lines.
# Two processes: the workloads that hop to queue threads run in their own, because the threads
# they leave behind changed the counts of the workloads after them (the memory workloads i1-i6
# varied by about 9% from one run to the next when they shared a process).
# Deterministic hashing: with the usual per-process random seed, a workload that hashes (the
# store's, j3) ran up to 3% more or fewer instructions from one run to the next.
hop_keys=$reported_only
# The swift-async-algorithms comparison runs on tasks: not measured here. The sweep (keys s.*)
# runs in a process of its own, after the others (see below).
skip_hops=(--skip x --skip s.)
for key in $hop_keys; do skip_hops+=(--skip "$key"); done

gate_dir=$PWD/$out
: > "$gate_dir/measured.tsv"
# The program as the process sees it: its path is part of what it allocates (see the sweep).
program=$out/combineex-benchmarks
profile_group() { # NAME, then the runner's key arguments; runs $program from the current directory
  local name=$1
  shift
  local dir="$gate_dir/$name"
  mkdir -p "$dir"
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$dir/profile" \
    --toggle-collect="$region" --dump-after="$region" \
    "$program" --only combineex --runs 1 --scale "$scale" --print-units "$@" \
    > "$dir/report.txt" 2> "$dir/valgrind.log" \
    || { cat "$dir/valgrind.log" >&2; echo "gate.sh: the benchmark run ($name) failed" >&2; exit 2; }

  grep '^units ' "$dir/report.txt" | awk '{ print $2, $3 }' > "$dir/units.txt"
  local count profiles index=0 key units instructions
  count=$(wc -l < "$dir/units.txt")
  # Callgrind numbers the dumps from 1 and writes a last profile, at exit, without a number.
  profiles=$(find "$dir" -name 'profile.[0-9]*' | wc -l)
  [ "$profiles" -eq "$count" ] || {
    echo "gate.sh: $count workloads but $profiles profiles in $name (does each call measure once?)" >&2
    exit 2
  }
  while read -r key units; do
    index=$((index + 1))
    instructions=$(awk '/^summary:/ { print $2 }' "$dir/profile.$index")
    awk -v k="$key" -v i="$instructions" -v u="$units" \
      'BEGIN { printf "%s\t%.1f\n", k, i / u }' >> "$gate_dir/measured.tsv"
  done < "$dir/units.txt"
}
profile_group single-thread "${skip_hops[@]}"
# shellcheck disable=SC2086 # one key per word
profile_group hops $hop_keys
# The sweep (keys s.*): most of its entries spend most of their instructions in the Swift
# runtime's generic metadata cache, whose lookups cost more or less with the heap's state, that
# is with everything the process did before. Measured: an entry counted up to 19% more after
# the other workloads than alone (s.Buffer); leaving one entry out moved another by 19%
# (s.MeasureInterval); the same binary run from a directory of another path length moved 64
# entries by up to 8%. So the sweep runs in a process of its own, from a directory whose path
# has the same length on every machine (only the length mattered: two paths of one length gave
# the same counts), and is gated with its own, wider tolerance: it catches an entry whose setup
# grows by a third or more, not a few percent. (Docs/Performance.md, "The setup sweep".)
sweep_home=$(mktemp -d /tmp/combineex-gate.XXXXXXXX)
trap 'rm -rf "$sweep_home"' EXIT
cp "$out/combineex-benchmarks" "$sweep_home/"
(cd "$sweep_home" && program=./combineex-benchmarks && profile_group sweep s.)
count=$(wc -l < "$out/measured.tsv")

if $update; then
  {
    echo "# Instructions per unit in each CombineEx workload's timed region, counted by"
    echo "# Benchmarks/gate.sh (callgrind, scale $scale). A deliberate change updates this file in the"
    echo "# same commit (gate.sh --update), with the reason in the commit message."
    echo "# key	instructions per unit"
    cat "$out/measured.tsv"
  } > "$baseline"
  echo "wrote $baseline ($count workloads)"
  exit 0
fi

[ -f "$baseline" ] || { echo "gate.sh: no $baseline (run gate.sh --update)" >&2; exit 2; }
awk -v tolerance="$tolerance" -v sweep_tolerance="$sweep_tolerance" -v reported="$reported_only" \
  -F '\t' '
  FNR == NR { if ($0 !~ /^#/) base[$1] = $2; next }
  {
    key = $1; now = $2
    if (!(key in base)) { status = "new (not in the baseline)"; change = "" }
    else {
      change = sprintf("%+.1f%%", (now / base[key] - 1) * 100)
      limit = key ~ /^s\./ ? sweep_tolerance : tolerance
      if (index(reported, " " key " ")) status = "reported, not gated"
      else if (now > base[key] * (1 + limit / 100)) { status = "WORSE"; worse++ }
      else status = "ok"
    }
    rows[++n] = sprintf("%-22s %12s %12s %8s  %s", key, (key in base) ? base[key] : "-", now, change, status)
    seen[key] = 1
    order[n] = key
    measured[key] = now
  }
  END {
    printf "%-22s %12s %12s %8s  %s\n", "key", "baseline", "now", "change", "status"
    for (i = 1; i <= n; i++) print rows[i]
    for (key in base) if (!(key in seen)) {
      printf "%-22s %12s %12s %8s  %s\n", key, base[key], "-", "", "MISSING (workload gone?)"
      worse++
    }
    if ("e1" in measured) {
      for (i = 1; i <= n; i++) {
        key = order[i]
        if (key ~ /^s\./ && measured[key] > measured["e1"] * 10)
          heavy = heavy sprintf("  %-22s %12s  %5.1fx e1\n", key, measured[key], measured[key] / measured["e1"])
      }
      if (heavy != "")
        printf "\nsweep entries above 10x e1 (%s instructions; each needs its reason in Docs/Performance.md):\n%s", measured["e1"], heavy
    }
    if (worse) {
      printf "\ngate: %d workload(s) more than %s%% (sweep: %s%%) worse than Benchmarks/baseline.tsv (instructions per unit).\n", worse, tolerance, sweep_tolerance
      print "If the change is deliberate, run Benchmarks/gate.sh --update and commit the baseline with the reason."
      exit 1
    }
    printf "\ngate: no workload more than %s%% (sweep: %s%%) worse than the baseline.\n", tolerance, sweep_tolerance
  }
' "$baseline" "$out/measured.tsv"
