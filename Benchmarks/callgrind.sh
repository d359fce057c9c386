#!/usr/bin/env bash
# Counts the instructions that one workload's timed region executes, in each library, with
# valgrind's callgrind: a measure that a loaded machine does not disturb, unlike time.
#
#   Benchmarks/callgrind.sh KEY [SCALE]     e.g. Benchmarks/callgrind.sh c1 0.1
#
# Prints the instructions per unit for CombineEx and OpenCombine, and keeps the callgrind
# profiles (callgrind_annotate them to see where the instructions go).
set -euo pipefail
cd "$(dirname "$0")"
key=${1:?usage: callgrind.sh KEY [SCALE]}
scale=${2:-0.1}

# SwiftPM does not recompile the workloads when only the body of an @inlinable function of the
# root package changed, and the workloads inline those bodies: touch them so they are rebuilt
# every time, or the counts measure the old code.
touch Sources/Workloads/*.swift Sources/Comparisons/*.swift
swift build -c release --product combineex-benchmarks > /dev/null
binary="$(swift build -c release --show-bin-path)/combineex-benchmarks"
out=".build/callgrind"
mkdir -p "$out"
# Valgrind 3.19 cannot read the DWARF 5 debug information Swift emits: profile a copy without
# it (the symbol table stays, so functions keep their names).
objcopy --strip-debug "$binary" "$out/combineex-benchmarks"

for library in combineex opencombine; do
  profile="$out/$key.$library.callgrind"
  valgrind --tool=callgrind --callgrind-out-file="$profile" --toggle-collect='*measuredRegion*' \
    "$out/combineex-benchmarks" --only "$library" --runs 1 --scale "$scale" --print-units "$key" \
    > "$out/$key.$library.txt" 2> "$out/$key.$library.log"
  if [ "$(grep -c '^units ' "$out/$key.$library.txt")" -gt 1 ]; then
    echo "error: $key selects several workloads; name exactly one (c1, not c)" >&2
    exit 2
  fi
  while read -r _ workload units; do
    # With --runs 1, each workload's region is collected once.
    instructions=$(callgrind_annotate "$profile" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    echo "$workload $library: $instructions instructions for $units units: $((instructions / units)) per unit ($profile)"
  done < <(grep '^units ' "$out/$key.$library.txt")
done
