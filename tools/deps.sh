#!/usr/bin/env bash
# Installs every Debian package the project uses; does nothing when all are present.
set -euo pipefail
packages=(
  build-essential g++ meson ninja-build pkg-config ccache
  verilator yosys libsystemc-dev llvm-15-dev clang-15
  libboost-graph-dev doctest-dev libyaml-cpp-dev
  nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb iverilog
  libxxhash-dev libssl-dev libpcre2-dev zlib1g-dev libzstd-dev libedit-dev libffi-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev librapidcheck-dev graphviz libxml2-utils
  librsvg2-bin  # rsvg-convert: polydat hls --format png renders the schedule SVG
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
