#!/usr/bin/env bash
# Builds the API reference (DocC) of the library modules with the toolchain alone: no package
# dependency, no plugin, nothing rebuilt.
#
#   1. Symbol graphs: `swift symbolgraph-extract` reads the modules that the last debug build
#      (`swift build`, `swift test`) left in `swift build --show-bin-path`/Modules.
#   2. Catalogs: each Sources/<Module>/<Module>.docc is copied to <output>/catalogs, and the
#      guides of Docs/ are added to it as articles (Docs/ stays the one source: DocsTests compiles
#      its examples; the copies are never committed). Links between guides become DocC links.
#   3. `docc convert` per module, then `docc merge` into one static site: <output>/site.
#
# Usage: Tools/docs.sh [--warnings-as-errors] [--output DIR] [--hosting-base-path PATH] [MODULE...]
#   --warnings-as-errors   fail (exit 1) on any DocC warning; CI (.ci/run) passes it.
#   --output DIR           where everything goes (default .build/docs).
#   --hosting-base-path P  for a site served under a sub-path (e.g. /CombineEx); default: the root.
#   MODULE...              only these modules (default: every module of .spi.yml's
#                          documentation_targets), and no merged site.
#
# Diagnostics are printed as `path:line:column: warning: message` against the committed files
# (Sources/..., Docs/...), followed by DocC's suggestions. CONTRIBUTING.md ("API reference")
# explains the usual fixes.
#
# Open the result: `python3 -m http.server --directory .build/docs/site 8000`, then
# http://localhost:8000/documentation/ (the site needs a web server: a browser will not run it
# from file://).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The documented modules are .spi.yml's documentation_targets (one line there adds a module both
# here and on the Swift Package Index). A module needs no catalog: without one, DocC makes a
# landing page that lists its symbols.
modules=()
spi_targets=$(sed -n \
  's/^[[:space:]-]*documentation_targets:[[:space:]]*\[\(.*\)\][[:space:]]*$/\1/p' .spi.yml)
IFS=', ' read -r -a modules <<<"$spi_targets"
if [ ${#modules[@]} -eq 0 ]; then
  echo ".spi.yml: error: no 'documentation_targets: [A, B]' line" >&2
  exit 1
fi

# Which module's reference each guide of Docs/ belongs to; a guide not listed goes to CombineEx,
# the product most users import.
guide_module() {
  case "$1" in
    Core | Publishers | Operators | ErrorHandling | Debugging | Combining | Schedulers | Async \
      | Performance | Reliability) echo CombineExCore ;;
    Networking) echo CombineExNetworking ;;
    Store | Effects) echo CombineExStore ;;
    Testing) echo CombineExTesting ;;
    *) echo CombineEx ;;
  esac
}

warnings_as_errors=()
output=.build/docs
base_path=
selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --warnings-as-errors) warnings_as_errors=(--warnings-as-errors) ;;
    --output) output=$2; shift ;;
    --hosting-base-path) base_path=${2%/}; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "docs.sh: error: unknown option $1" >&2; exit 2 ;;
    *) selected+=("$1") ;;
  esac
  shift
done
merge=1
if [ ${#selected[@]} -gt 0 ]; then
  modules=("${selected[@]}")
  merge=0
fi

elapsed() { echo "$(($(date +%s) - $1))s"; }
start=$(date +%s)

# 1. Symbol graphs, from the modules the last build made.
bin=$(swift build --show-bin-path)
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)
sdk=()
if command -v xcrun >/dev/null 2>&1; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi
for module in "${modules[@]}"; do
  doc="$bin/Modules/$module.swiftdoc"
  if [ ! -f "$doc" ]; then
    echo "docs.sh: error: $doc is missing: build first (swift build, or swift test)" >&2
    exit 1
  fi
  # The module file, not the .swiftdoc: the compiler leaves a .swiftdoc whose content did not
  # change untouched, so its date can be older than a source that changed only code.
  newer=$(find "Sources/$module" -name '*.swift' -newer "$bin/Modules/$module.swiftmodule" | head -n 1)
  if [ -n "$newer" ]; then
    echo "docs.sh: error: $newer changed after the last build: run swift build first" >&2
    exit 1
  fi
done
rm -rf "$output"
mkdir -p "$output/symbol-graphs" "$output/catalogs" "$output/archives"
catalogs=$(cd "$output/catalogs" && pwd)
pids=()
for module in "${modules[@]}"; do
  mkdir -p "$output/symbol-graphs/$module"
  # Synthesized members (every operator again on every Publishers.* type) are left out, as
  # swift-docc-plugin's --skip-synthesized-symbols does (.spi.yml passes it): with them the
  # core's reference had 12,500 pages instead of 1,400, and took 2 minutes instead of 10 seconds.
  swift symbolgraph-extract -module-name "$module" -I "$bin/Modules" -target "$triple" \
    ${sdk[@]+"${sdk[@]}"} -minimum-access-level public -emit-extension-block-symbols \
    -skip-synthesized-members -output-dir "$output/symbol-graphs/$module" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
echo "symbol graphs: $(elapsed "$start")"

# 2. The guides, in the order of README.md's "Guides" list (guides it does not list come last),
# and the module whose reference shows each.
guides=$( (awk '/^## /{ listed = ($0 ~ /^## Guides/) } listed' README.md \
  | grep -o '](Docs/[A-Za-z0-9_-]*\.md' | sed 's|^](Docs/||; s|\.md$||'
  for guide in Docs/*.md; do basename "$guide" .md; done) | awk '!seen[$0]++')
guide_map=
for name in $guides; do guide_map+="$name=$(guide_module "$name") "; done

# Rewrites one guide for DocC, keeping its lines where they are (diagnostics point at Docs/):
# ```swift run / ```swift toplevel fences become ```swift (DocsTests' markers), a link to a guide
# of the same module becomes <doc:Name-Guide#Heading>, a link to another module's guide becomes
# a link into the merged site, and a GitHub heading anchor (#a-heading) becomes DocC's
# (#A-heading). Any other relative link is reported: the reference cannot follow it.
# A guide's article is named <Name>-Guide: DocC drops an article named like a symbol
# (Publishers.md, Store.md).
prepare_guide() {
  awk -v module="$1" -v base="$base_path" -v guides="$guide_map" -v docs=Docs \
    -v self="$(basename "$2" .md)" '
    function github_slug(text) {
      text = tolower(text)
      gsub(/[^a-z0-9 _-]/, "", text)
      gsub(/ /, "-", text)
      return text
    }
    function docc_anchor(text) {
      gsub(/[^A-Za-z0-9 \t-]/, "", text)
      gsub(/[ \t-]+/, "-", text)
      sub(/^-/, "", text)
      sub(/-$/, "", text)
      return text
    }
    # The DocC anchor of the heading of guide `name` whose GitHub anchor is `slug`.
    function anchor(name, slug,    file, line, in_code, text, found) {
      file = docs "/" name ".md"
      found = ""
      while ((getline line < file) > 0) {
        if (line ~ /^[ \t]*```/) { in_code = !in_code; continue }
        if (in_code || line !~ /^#+[ \t]/) continue
        text = line
        sub(/^#+[ \t]+/, "", text)
        if (github_slug(text) == slug) { found = docc_anchor(text); break }
      }
      close(file)
      if (found == "") {
        printf "%s/%s.md:%d: warning: no heading of %s.md has the anchor #%s\n", docs, self, NR,
          name, slug > "/dev/stderr"
        return slug
      }
      return found
    }
    function target(name, slug,    fragment) {
      fragment = slug == "" ? "" : "#" anchor(name, slug)
      if (owner[name] == module) return "<doc:" name "-Guide" fragment ">"
      return base "/documentation/" tolower(owner[name]) "/" tolower(name) "-guide" fragment
    }
    BEGIN {
      count = split(guides, pairs, " ")
      for (i = 1; i <= count; i++) {
        split(pairs[i], pair, "=")
        owner[pair[1]] = pair[2]
      }
    }
    /^[ \t]*```/ {
      if (!in_code) sub(/```swift[ \t]+(run|toplevel)[ \t]*$/, "```swift")
      in_code = !in_code
      print
      next
    }
    in_code { print; next }
    {
      rest = $0
      out = ""
      while (match(rest, /\]\([^)]*\)/)) {
        link = substr(rest, RSTART + 2, RLENGTH - 3)
        out = out substr(rest, 1, RSTART + 1)
        rest = substr(rest, RSTART + RLENGTH)
        if (link ~ /^[a-z]+:/ || link ~ /^</) { out = out link ")"; continue }
        name = link
        slug = ""
        if (index(link, "#") > 0) {
          name = substr(link, 1, index(link, "#") - 1)
          slug = substr(link, index(link, "#") + 1)
        }
        sub(/\.md$/, "", name)
        if (name == "") name = self
        if (name in owner) {
          out = out target(name, slug) ")"
        } else {
          printf "%s/%s.md:%d: warning: the reference cannot follow the link to %s\n", docs, self,
            NR, link > "/dev/stderr"
          out = out link ")"
        }
      }
      print out rest
    }
  ' "$2"
}

# 3. Per module: the catalog (the committed one plus the guides), then `docc convert`. The
# diagnostics are rewritten to point at the committed files.
failed=()
total=0
for module in "${modules[@]}"; do
  catalog="$catalogs/$module.docc"
  if [ -d "Sources/$module/$module.docc" ]; then
    cp -R "Sources/$module/$module.docc" "$catalog"
  else
    mkdir -p "$catalog"
  fi
  mkdir -p "$catalog/Guides"
  topics=
  for name in $guides; do
    [ "$(guide_module "$name")" = "$module" ] || continue
    prepare_guide "$module" "Docs/$name.md" >"$catalog/Guides/$name-Guide.md" \
      2>"$output/guide.log" || { cat "$output/guide.log" >&2; exit 1; }
    cat "$output/guide.log"
    total=$((total + $(wc -l <"$output/guide.log")))
    topics+="- <doc:$name-Guide>"$'\n'
  done
  rm -f "$output/guide.log"

  # The guides become the landing page's first topic group. The lines inserted after line
  # `inserted_after` are subtracted from the diagnostics' line numbers below.
  landing="$catalog/$module.md"
  inserted_after=0
  inserted=0
  if [ -n "$topics" ] && [ -f "$landing" ]; then
    if ! grep -q '^## Topics[[:space:]]*$' "$landing"; then printf '\n## Topics\n' >>"$landing"; fi
    inserted_after=$(grep -n -m 1 '^## Topics[[:space:]]*$' "$landing" | cut -d: -f1)
    inserted=$((3 + $(printf '%s' "$topics" | wc -l)))
    awk -v after="$inserted_after" -v topics="$topics" '
      { print }
      NR == after { printf "\n### Guides\n\n%s", topics }
    ' "$landing" >"$landing.new"
    mv "$landing.new" "$landing"
  fi

  log="$output/archives/$module.log"
  status=0
  docc convert "$catalog" \
    --additional-symbol-graph-dir "$output/symbol-graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-dir "$output/archives/$module.doccarchive" \
    ${base_path:+--hosting-base-path "$base_path"} \
    --ide-console-output ${warnings_as_errors[@]+"${warnings_as_errors[@]}"} >"$log" 2>&1 \
    || status=$?
  # DocC's fix-its (`path:range: fixit: text`, the text on the following lines) repeat the
  # suggestions its warnings already give; they are left out.
  sed -e "s|$catalog/Guides/\([^/:]*\)-Guide\.md|Docs/\1.md|g" "$log" \
    | awk -v landing="$catalog/$module.md" -v committed="Sources/$module/$module.docc/$module.md" \
      -v after="$inserted_after" -v inserted="$inserted" -v catalog="$catalog/" \
      -v source="Sources/$module/$module.docc/" -v root="$root/" '
      /: fixit: / { fixit = 1; next }
      /(^|: )(warning|error|note): / { fixit = 0 }
      fixit || /^(Finished building|Generated documentation|$)/ { next }
      index($0, landing ":") == 1 {
        rest = substr($0, length(landing) + 2)
        line = rest + 0
        if (line > after + inserted) line -= inserted
        sub(/^[0-9]+/, line, rest)
        $0 = committed ":" rest
      }
      index($0, catalog) == 1 { $0 = source substr($0, length(catalog) + 1) }
      index($0, root) == 1 { $0 = substr($0, length(root) + 1) }
      { print }
    ' || true
  count=$(grep -c -E '(^|: )(warning|error): ' "$log" || true)
  total=$((total + count))
  echo "$module: warnings: $count ($(elapsed "$start"))"
  if [ "$status" -ne 0 ]; then failed+=("$module"); fi
done

if [ "$merge" -eq 1 ] && [ ${#failed[@]} -eq 0 ]; then
  archives=()
  for module in "${modules[@]}"; do archives+=("$output/archives/$module.doccarchive"); done
  docc merge "${archives[@]}" --output-path "$output/site" \
    --synthesized-landing-page-name CombineEx >"$output/archives/merge.log" 2>&1 \
    || { cat "$output/archives/merge.log"; failed+=(merge); }
  echo "merged site: $output/site ($(elapsed "$start"))"
fi

echo "docs: warnings: $total in ${#modules[@]} modules ($(elapsed "$start"))"
if [ ${#failed[@]} -gt 0 ] \
  || { [ ${#warnings_as_errors[@]} -gt 0 ] && [ "$total" -gt 0 ]; }; then
  echo "docs.sh: failed (${failed[*]:-Docs/}); CONTRIBUTING.md, \"API reference\", has the" \
    "usual fixes" >&2
  exit 1
fi
if [ "$merge" -eq 1 ] && [ -z "$base_path" ]; then
  echo "open: python3 -m http.server --directory $output/site 8000," \
    "then http://localhost:8000/documentation/"
fi
