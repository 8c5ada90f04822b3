#!/bin/sh
# docs/experiments/narrow-payload/run.sh [DIR]: builds the mesh-8x8 board router (DOR-only, 1 local
# port, 2 VCs, 8 slots) with a 256-, 128- and 64-bit payload, with the models' Verilator and clang
# flags; checks that all three give the same fingerprint; times 2,000,000 cycles of each, three
# rounds in alternating order; and counts the model's instructions per cycle under callgrind
# (when valgrind is installed). About 3 minutes on 2 cores.
#
# The RTL is copied and one line changed: the board router's rail field (head bits 176..177) is not
# read. With one local port the route computer ignores the rail anyway (hx_route_board: a rail at
# or above NL takes the first local port), so behaviour is unchanged; it is the only field above
# bit 63 a board router reads, and a payload narrower than 178 bits cannot hold it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=${1:-/tmp/hx-narrow-payload}
rm -rf "$out"
mkdir -p "$out"
cp -r "$repo/rtl" "$out/rtl"
rail='\.rail_i     (in_data_i\[p\*W + HX_HDR_RAIL_LSB +: HX_HDR_RAIL_W\]),'
grep -q "$rail" "$out/rtl/router/hx_board_router.sv" || {
  echo "run.sh: the rail line of hx_board_router.sv changed; update this script" >&2
  exit 1
}
sed -i "s/$rail/.rail_i     (2'b0),/" "$out/rtl/router/hx_board_router.sv"
rtl=$out/rtl
widths="256 128 64"
for w in $widths; do
  verilator --cc --exe --build -j 2 --Mdir "$out/w$w" --prefix Vr --compiler clang \
    -MAKEFLAGS "CXX=clang++ OPT_FAST=-O3 OPT_SLOW=-O1" -CFLAGS "-O3 -gdwarf-4 -DWB=$w" \
    -Wall -O3 --x-assign fast --x-initial fast --assert -DHX_ASSERT \
    -GNL=1 -GV=2 -GD=8 -GW=$w -GDOR_ONLY=1 --top hx_board_router -y "$rtl/common" \
    "$rtl/common/hx_arb_rr.sv" "$rtl"/route/*.sv "$rtl"/router/*.sv "$here/router_driver.cpp" \
    -o router > "$out/w$w.log" 2>&1 || { tail -20 "$out/w$w.log"; exit 1; }
done
echo "fingerprints (must agree apart from W):"
for w in $widths; do "$out/w$w/router" 20000 0.3; done
echo "wall time of 2,000,000 cycles at load 0.3, three rounds, order alternating:"
for round in 1 2 3; do
  order=$widths
  [ "$round" = 2 ] && order="64 128 256"
  for w in $order; do
    /usr/bin/time -f "  round $round W=$w: %e s" "$out/w$w/router" 2000000 0.3 > /dev/null
  done
done
if command -v valgrind > /dev/null 2>&1; then
  echo "instructions per cycle in the router model (callgrind, 20,000 cycles):"
  for load in 0.3 0; do
    for w in $widths; do
      valgrind --tool=callgrind --callgrind-out-file="$out/cg$w" "$out/w$w/router" 20000 $load > /dev/null 2>&1
      callgrind_annotate --auto=no "$out/cg$w" 2> /dev/null | awk -v w=$w -v load=$load '
        /:Vr___024root/ { gsub(",", "", $1); model += $1 }
        END { printf "  load %s W=%s: %.0f\n", load, w, model / 20000 }'
    done
  done
fi
