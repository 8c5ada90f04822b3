#!/bin/sh
# Check every RTL top (scripts/rtl-tops.txt) with all three tools hxemu's RTL must satisfy:
#   Verilator --lint-only -Wall, Icarus (iverilog -g2012) elaboration, Yosys parse + hierarchy.
# Verilator checks each top twice: as Icarus and Yosys see it, and with every assertion the model
# build and the arbiter test verilate (--assert -DHX_ASSERT -DHX_ASSERT_ARBITER,
# rtl/common/hx_assert.svh), so the assertion code is lint clean too. Icarus and Yosys never see
# HX_ASSERT.
# Usage: scripts/lint.sh [--no-yosys]. Exits non-zero when any tool complains on any top.
set -eu
cd "$(dirname "$0")/.."
use_yosys=1
if [ "${1:-}" = "--no-yosys" ]; then use_yosys=0; shift; fi
self="$(pwd)/scripts/lint.sh"
SRCS=$(find rtl -name '*.sv' | sort | tr '\n' ' ')
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
# One top: `scripts/lint.sh --one TOP PARAMS...` (the tops run side by side, one per core: Yosys's
# elaboration takes most of the time).
if [ "${1:-}" = "--one" ]; then
  top=$2; shift 2; params="$*"
  vflags=""; iflags=""; yparams=""
  for p in $params; do
    vflags="$vflags -G$p"; iflags="$iflags -P$top.$p"
    yparams="$yparams -chparam ${p%%=*} ${p#*=}"
  done
  for aflags in "" "--assert -DHX_ASSERT -DHX_ASSERT_ARBITER"; do
    # shellcheck disable=SC2086
    if ! out=$(verilator --lint-only -Wall $aflags -Irtl/common --top-module "$top" $vflags $SRCS 2>&1); then
      echo "$out"; echo "lint: verilator ${aflags:+($aflags) }FAILED on $top"; exit 1
    fi
  done
  # shellcheck disable=SC2086
  if ! out=$(iverilog -g2012 -Irtl/common -s "$top" $iflags -o "$tmp/a.vvp" $SRCS 2>&1) || [ -n "$out" ]; then
    echo "$out"; echo "lint: iverilog FAILED on $top"; exit 1
  fi
  if [ "$use_yosys" = 1 ]; then
    # shellcheck disable=SC2086
    # -defer: each module is elaborated once, with the top's parameters, at hierarchy (not first
    # with its defaults and again by chparam). No proc: lint asks whether Yosys reads and
    # elaborates the RTL; synthesis (make synth, the area and registered-output tests) goes on from
    # there. Together they cut Yosys on the 16-port switch from 21 s to 9 s here.
    if ! out=$(yosys -q -p "read_verilog -defer -sv -Irtl/common $SRCS; hierarchy -check -top $top $yparams" 2>&1 | grep -v "^Warning: Replacing memory"); then :; fi
    if echo "$out" | grep -qi "error"; then echo "$out"; echo "lint: yosys FAILED on $top"; exit 1; fi
  fi
  echo "lint: $top ($params) clean"
  exit 0
fi
jobs=$(nproc 2>/dev/null || echo 2)
extra=""; [ "$use_yosys" = 0 ] && extra="--no-yosys"
# Each line "TOP PARAMS..." becomes one --one run; xargs stops with a non-zero status if any failed.
grep -v '^#' scripts/rtl-tops.txt | grep -v '^$' | \
  HX_LINT_EXTRA="$extra" xargs -P "$jobs" -I{} sh -c 'exec "$0" $HX_LINT_EXTRA --one {}' "$self"
