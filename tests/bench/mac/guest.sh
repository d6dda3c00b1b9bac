#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VM (tests/bench/mac/run): load the benchmark module, which
# measures and refuses to stay, and print its lines.
set -u
ko=$1
iters=${2:-200000}
dmesg -C
insmod "$ko" iters="$iters" 2>/dev/null
dmesg | sed -n 's/.*elec_macbench: //p'
dmesg | grep -q 'ns_per_frame' || { echo "bench-mac: no result"; exit 1; }
