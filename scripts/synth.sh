#!/bin/sh
# Synthesize the RTL tops of scripts/synth-tops.txt with Yosys' generic `synth` and print its cell
# count: a technology-independent size estimate (gates and flip-flops), not an area in um^2.
# HX_ASSERT stays undefined: the RTL's assertion sections (rtl/common/hx_assert.svh) are not
# synthesized.
set -eu
cd "$(dirname "$0")/.."
SRCS=$(find rtl -name '*.sv' | sort | tr '\n' ' ')
grep -v "^#" scripts/synth-tops.txt | grep -v '^$' | while read -r top params; do
  yparams=""
  for p in $params; do yparams="$yparams -set ${p%%=*} ${p#*=}"; done
  log=$(mktemp)
  # shellcheck disable=SC2086
  yosys -q -l "$log" -p "read_verilog -sv -Irtl/common $SRCS; chparam $yparams $top; synth -flatten -top $top; stat" >/dev/null 2>&1 || { cat "$log"; exit 1; }
  # Only the last statistics section (the one after our own `stat`).
  last=$(awk '/Printing statistics/ {buf=""} {buf = buf $0 "\n"} END {printf "%s", buf}' "$log")
  cells=$(printf "%b" "$last" | grep -E "Number of cells:" | tail -1 | awk '{print $4}')
  ffs=$(printf "%b" "$last" | grep -E '[$]_[A-Z]*DFF' | awk '{s+=$2} END {print s+0}')
  printf "synth: %-18s %-24s cells %8s   flip-flops %7s\n" "$top" "$params" "$cells" "$ffs"
  rm -f "$log"
done
