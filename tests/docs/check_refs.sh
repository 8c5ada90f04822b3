#!/bin/sh
# Every file path that the docs, the README or a source comment names must exist in the repository,
# and nothing may cite the design brief (DESIGN.md), which lives outside it: what the code relies on
# from the brief is restated in docs/. Run from the repository root; prints each broken reference.
set -u
cd "$(dirname "$0")/../.."
status=0
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT

# Paths in backticks in Markdown (docs/, README.md, test plans): a token with a '/' and no pattern
# characters, under one of the repository's top-level folders.
for f in README.md docs/*.md $(git ls-files '*.md' | grep '^tests/'); do
  grep -o '`[^`]*`' "$f" | tr -d '`' | tr ' ' '\n' |
    grep -E '^(rtl|sysc|tb|sw|app|tests|docs|configs|scripts|cmake)/[A-Za-z0-9_./-]*$' |
    sed 's/[.,:;)]*$//' | sort -u | while read -r p; do
      [ -e "$p" ] || echo "$f: names $p, which does not exist"
    done
done >> "$tmp"

# Paths in source files (comments, includes, build files).
git ls-files '*.h' '*.cpp' '*.in' '*.sv' '*.svh' '*.cmake' '*CMakeLists.txt' '*.sh' | while read -r f; do
  grep -oE '(^|[^A-Za-z0-9_/.-])(rtl|sysc|tb|sw|app|tests|docs|configs|scripts|cmake)/[A-Za-z0-9_/.*-]*[A-Za-z0-9]' "$f" |
    sed 's/^[^a-z]//' | sort -u | while read -r p; do
      case "$p" in *'*'*|*generated/*|*.pb.h) continue ;; esac   # .pb.h: protoc writes it into the build tree
      case "${p##*/}" in *.*) ;; *) continue ;; esac
      # a path from the repository root, or (build files) from the file's own folder
      [ -e "$p" ] || [ -e "$(dirname "$f")/$p" ] || echo "$f: names $p, which does not exist"
    done
done >> "$tmp"

git ls-files | grep -v '^tests/docs/' | xargs grep -l 'DESIGN\.md' 2>/dev/null | sed 's/$/: cites DESIGN.md (not in the repository; cite docs\/ instead)/' >> "$tmp"

if [ -s "$tmp" ]; then cat "$tmp"; status=1; else echo "docs refs: every named file exists"; fi
exit $status
