#!/usr/bin/env bash
# Checks that CombineExCore's public API is the committed list, Tools/core-api.txt: every
# change to the core's surface must be deliberate and reviewed (the core declares only Apple's
# Combine names; ARCHITECTURE.md section 1, Docs/Core.md).
#
#   Tools/core-api.sh            compare (exit 1 and print the difference if they differ)
#   Tools/core-api.sh --update   rewrite Tools/core-api.txt from the current build
#
# It reads the module the debug build made (.build/debug/Modules), so run `swift build` (or
# `swift test`) first. The list has one public symbol per line, sorted: its path, then its
# declaration and the constraints of the extension that declares it. Underscored names are not
# listed (symbolgraph-extract leaves them out); Docs/Core.md lists the few the core has.
set -euo pipefail
cd "$(dirname "$0")/.."
list=Tools/core-api.txt
modules=.build/debug/Modules
[ -f "$modules/CombineExCore.swiftmodule" ] || [ -d "$modules/CombineExCore.swiftmodule" ] \
  || { echo "no debug build of CombineExCore in $modules: run swift build first" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift symbolgraph-extract -module-name CombineExCore -I "$modules" \
  -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
  -skip-synthesized-members -output-dir "$work" > "$work/extract.log" 2>&1 \
  || { cat "$work/extract.log" >&2; exit 2; }

# One line per symbol: its path, its declaration, and the constraints of its extension (python3,
# which every CI machine has; jq is not guaranteed there).
python3 - "$work" <<'PY' | LC_ALL=C sort -u > "$work/api.txt"
import glob, json, sys

ops = {"conformance": ":", "sameType": "=="}
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    with open(path) as file:
        graph = json.load(file)
    for symbol in graph["symbols"]:
        line = ".".join(symbol["pathComponents"]) + " | "
        line += "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        constraints = (symbol.get("swiftExtension") or {}).get("constraints") or []
        if constraints:
            parts = sorted({c["lhs"] + " " + ops.get(c["kind"], c["kind"]) + " " + c["rhs"]
                            for c in constraints})
            line += " where " + ", ".join(parts)
        print(line)
PY

if [ "${1:-}" = "--update" ]; then
  cp "$work/api.txt" "$list"
  echo "wrote $list ($(wc -l < "$list") symbols)"
  exit 0
fi
if ! diff -u "$list" "$work/api.txt" > "$work/api.diff"; then
  cat "$work/api.diff"
  echo "CombineExCore's public API differs from $list (- committed, + built)."
  echo "If the change is deliberate (and Apple's Combine has the name), run Tools/core-api.sh --update and commit the list."
  exit 1
fi
echo "CombineExCore's public API matches $list ($(wc -l < "$list") symbols)"
