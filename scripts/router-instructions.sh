#!/bin/sh
# Instructions per cycle of one board router model of this build: hxemu-router-bench run under
# valgrind (callgrind), the self cost of the verilated model's functions divided by the cycles run.
# Exact and repeatable where wall time on a shared machine is not: the figure to compare two RTL
# revisions by (build each, run this on both). The fingerprint line must match when a change claims
# the same behaviour.
#
#   scripts/router-instructions.sh [BENCH] [hxemu-router-bench options]
#   scripts/router-instructions.sh build/hxemu-router-bench --local-ports 4 --vcs 6 --slots 32
#   scripts/router-instructions.sh --dor-only --vcs 6 --slots 32   (hx4mesh-1024's board routers)
#
# BENCH defaults to build/hxemu-router-bench; --cycles defaults to 20000 here (valgrind runs the
# router about 50x slower than native).
set -eu
bench=build/hxemu-router-bench
case "${1:-}" in
  -*|"") ;;
  *) bench=$1; shift ;;
esac
if [ ! -x "$bench" ]; then
  echo "router-instructions: $bench is not an executable (build it: cmake --build build --target hxemu-router-bench)" >&2
  exit 2
fi
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
  echo "router-instructions: needs valgrind and callgrind_annotate (Debian: apt-get install valgrind)" >&2
  exit 2
fi
case " $* " in
  *" --cycles "*) ;;
  *) set -- --cycles 20000 "$@" ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bench" "$@" >"$tmp/out" 2>"$tmp/err" || {
  cat "$tmp/err" >&2
  exit 1
}
cat "$tmp/out"
cycles=$(awk '/^cycles /{print $2}' "$tmp/out")
callgrind_annotate --auto=no "$tmp/cg" 2>/dev/null | awk -v n="$cycles" '
  /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
  /Vhx_board_router_[A-Za-z0-9_]*___024root/ { gsub(",", "", $1); model += $1 }
  END {
    if (n <= 0 || model <= 0) { print "router-instructions: no model functions in the profile" > "/dev/stderr"; exit 1 }
    printf "instructions per cycle: %.0f in the router model, %.0f in the whole process\n", model / n, total / n
  }'
