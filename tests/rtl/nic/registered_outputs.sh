#!/bin/sh
# Every output of a block is registered: no input of <top> may reach an output through
# combinational logic only. Yosys walks back from every output through cells other than
# flip-flops (memory read ports stop at the stored state) and lists the inputs it reaches.
# Usage: registered_outputs.sh <top> [param=value ...]   (run from the project root)
set -eu
top=$1; shift
if ! command -v yosys >/dev/null 2>&1; then echo "yosys not installed: skipped"; exit 0; fi
SRCS=$(find rtl -name '*.sv' | sort | tr '\n' ' ')
chp=""
for p in "$@"; do chp="$chp -set ${p%%=*} ${p#*=}"; done
ffs='$dff,$dffe,$sdff,$sdffe,$sdffce,$adff,$adffe,$aldff,$aldffe,$dffsr,$dffsre'
# shellcheck disable=SC2086
out=$(yosys -p "read_verilog -sv -Irtl/common $SRCS; chparam $chp $top; hierarchy -top $top; proc; flatten; opt_clean; select -list o:* %ci*:-$ffs i:* %i" 2>&1)
paths=$(printf '%s\n' "$out" | grep "^$top/" || true)
if [ -n "$paths" ]; then
  echo "inputs of $top with a combinational path to an output:"; echo "$paths"; exit 1
fi
if ! printf '%s\n' "$out" | grep -q "End of script"; then echo "$out" | tail -20; exit 1; fi
echo "$top ($*): every output registered"
