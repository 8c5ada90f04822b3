#!/bin/sh
# `make synth`: Yosys generic-synthesis cells and flip-flops of the router, the switch and the NIC
# at a configuration's design point (its ports, VCs, buffer depths, flit width) and the system's
# total -- `hxemu area` itself, so `make synth` and the area report are one computation on the
# configuration that is emulated (docs/area.md). Results are cached; a repeated run is instant.
# HX_ASSERT stays undefined: the RTL's assertion sections (rtl/common/hx_assert.svh) are not
# synthesized.
# Usage: scripts/synth.sh [CONFIG [hxemu area options...]]   (CONFIG: configs/hx2mesh-64.json)
# HXEMU: the hxemu binary (build/hxemu).
set -eu
cd "$(dirname "$0")/.."
HXEMU=${HXEMU:-build/hxemu}
config=${1:-configs/hx2mesh-64.json}
[ $# -gt 0 ] && shift
if [ ! -x "$HXEMU" ]; then
  echo "synth: $HXEMU is not built (make synth builds it; or set HXEMU to an hxemu binary)" >&2
  exit 2
fi
exec "$HXEMU" area --config "$config" "$@"
