#!/usr/bin/env bash
# scripts/build-revision.sh REV DIR: build the hxemu binary of git revision REV into DIR, for
# `make bench BASELINE=DIR/build/hxemu` (hxemu-bench --baseline): the tree of REV is exported with
# git archive into DIR/src (no checkout, the working tree is untouched) and built with CMake
# (Release, target hxemu only) in DIR/build. Run from inside the repository. Takes about as long as a
# clean build of the models (several minutes on 2 cores); a second call with the same REV and DIR
# only rebuilds what changed.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 REV DIR   (e.g. $0 ccdb623 /tmp/hxemu-ccdb623; then make bench BASELINE=/tmp/hxemu-ccdb623/build/hxemu)" >&2
  exit 2
fi
rev=$1
dir=$2
commit=$(git rev-parse --verify --quiet "${rev}^{commit}") || {
  echo "$0: '$rev' is not a revision of this repository" >&2
  exit 2
}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
src=$dir/src
# A fresh export when the folder holds another revision (or none).
if [[ ! -f $src/.hxemu-revision || $(cat "$src/.hxemu-revision") != "$commit" ]]; then
  rm -rf "$src"
  mkdir -p "$src"
  git archive --format=tar "$commit" | tar -x -C "$src"
  echo "$commit" > "$src/.hxemu-revision"
fi
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Ninja for a new build folder; a folder configured before keeps its generator (CMake refuses a change).
gen=(-G Ninja)
[[ -f $dir/build/CMakeCache.txt ]] && gen=()
cmake -S "$src" -B "$dir/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$dir/build" -j "$jobs" --target hxemu
echo "$0: built $rev ($commit) at $dir/build/hxemu"
