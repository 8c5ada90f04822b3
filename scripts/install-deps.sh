#!/bin/sh
# Install the Debian packages hxemu needs, only those missing (idempotent). Usage:
#   scripts/install-deps.sh            build, test and run dependencies (gtkwave: fst2vcd, with which
#                                      the waveform tests read --trace files back)
#   scripts/install-deps.sh synth      also Yosys (for make lint / make synth)
set -eu

PKGS="cmake g++ clang make ninja-build pkg-config zlib1g-dev ccache verilator iverilog libsystemc-dev libboost-dev \
libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev libfmt-dev git libopenmpi-dev openmpi-bin \
libprotobuf-dev protobuf-compiler librsvg2-bin gtkwave"
if [ "${1:-}" = "synth" ]; then
  PKGS="$PKGS yosys"
fi

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

echo "hxemu: installing missing Debian packages:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "hxemu: need root (or sudo) to install:$missing" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
