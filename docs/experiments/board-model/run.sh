#!/bin/sh
# docs/experiments/board-model/run.sh [DIR]: builds the 8 x 8 board probe twice (Verilator's default
# inlining, then hx_board_router kept as a module of its own), with the models' Verilator flags, and
# times 60,000 cycles of each beside hxemu's own mesh-8x8 run of the same load (build/hxemu).
# About 8 minutes of compiling on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=${1:-/tmp/hx-board-probe}
rtl=$repo/rtl
mkdir -p "$out"
printf '`verilator_config\nno_inline -module "hx_board_router"\n' > "$out/no_inline.vlt"
for variant in inlined no_inline; do
  extra=""
  [ "$variant" = no_inline ] && extra="$out/no_inline.vlt"
  verilator --cc --exe --build -j 2 --Mdir "$out/$variant" --compiler clang \
    -MAKEFLAGS "CXX=clang++ OPT_FAST=-O3 OPT_SLOW=-O1" -CFLAGS -O3 \
    -Wall -Wno-UNUSEDSIGNAL -Wno-UNUSEDPARAM -O3 --x-assign fast --x-initial fast --assert -DHX_ASSERT \
    --top hx_board_probe -y "$rtl/common" -I"$rtl/common" $extra "$here/hx_board_probe.sv" \
    "$rtl"/router/*.sv "$rtl"/route/*.sv "$rtl/common/hx_arb_rr.sv" "$here/probe_driver.cpp" \
    -o probe > "$out/$variant.log" 2>&1
  echo "$variant: $(size "$out/$variant/probe" | awk 'NR == 2 {print $1}') bytes of code"
  /usr/bin/time -f "$variant: %e s for 60000 cycles" "$out/$variant/probe" 60000 0.3
done
cd "$repo"
/usr/bin/time -f "hxemu: %e s whole process" build/hxemu traffic --config configs/mesh-8x8.json \
  --pattern uniform --packet-flits 4 --load 0.3 --warmup 10000 --measure 50000 --threads 1 | grep emulation
