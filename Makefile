# SPDX-License-Identifier: GPL-2.0
# User entry points. `make` builds module/election.ko and userspace tools.
#
#   make            module/election.ko, userspace/electionctl, userspace/sim/electsim
#   make deps       install the Debian packages the project needs (root)
#   make style      checkpatch --strict, W=1 and sparse (scripts/style)
#   make kunit      KUnit suites on UML (kunit/run)
#   make utest      userspace unit tests (tests/core, userspace, userspace/sim)
#   make vmtest     integration scenarios in QEMU VMs (scripts/vmtest)
#   make vmtest-debug  the same scenarios on the debug kernel (KASAN, UBSAN,
#                   lockdep, debug objects, kmemleak); not part of check
#   make vmtest-long  long scenarios (tests/vm/long: partitions flapping for
#                   a minute); not part of check
#   make debug-kernel  build (once, cached) that kernel (scripts/debug-kernel)
#   make check      all of the above; last line "check: N passed, N failed"
#   make demo       the 5-node demo in a VM (tests/vm/demo.sh)
#   make tables     Documentation/results/message-counts.md and its pngs from electsim
#   make bench-sim  simulator speed: events/s, wall time, peak memory
#   make bench-failover [QUICK=1]  failover latency against keepalived in VMs
#                   (tests/bench/failover; not part of check)
#   make bench-stability [QUICK=1]  smallest stable hb-interval, 16 nodes
#                   (tests/bench/stability; not part of check)
#   make bench-timers  timer lateness per timer mode, quiet and under a
#                   CPU hog, in VMs (tests/bench/timer-lateness.sh)
#   make clean

KDIR ?= $(shell k=/lib/modules/$$(uname -r)/build; \
	if [ -d "$$k" ]; then echo "$$k"; \
	else ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1; fi)

.PHONY: all module userspace clean deps style kunit utest vmtest vmharness \
	check demo tables bench-sim bench-failover bench-stability bench-timers vmtest-debug vmtest-long \
	debug-kernel
all: module userspace

module:
	@test -n "$(KDIR)" || { echo "no kernel build dir: run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace
	$(MAKE) -C userspace/sim

# Installs only what is missing (apt-get update only then); cheap otherwise.
deps:
	@scripts/deps

style:
	@KDIR="$(KDIR)" scripts/style

kunit:
	@test -x kunit/run || { echo "kunit/run is missing" >&2; exit 1; }
	kunit/run

utest:
	$(MAKE) -C tests/core check
	$(MAKE) -C userspace check
	$(MAKE) -C userspace/sim check

# Scenarios need the module and electionctl; KDIR tells the VM which kernel.
vmtest: all
	@KDIR="$(KDIR)" scripts/vmtest

# The debug kernel builds its own election.ko (tests/vm/run), so only
# electionctl is needed here.
vmtest-debug: userspace
	@VM_KERNEL=debug scripts/vmtest

# scenarios too long for make check (tests/vm/long): partitions that flap
# for a minute, ...
vmtest-long: all
	@KDIR="$(KDIR)" scripts/vmtest tests/vm/long/*.sh

debug-kernel:
	@scripts/debug-kernel

vmharness:
	@tests/vm/selftest.sh

# deps first, then a fresh make (KDIR is computed after the headers exist).
check:
	@scripts/check

demo:
	@scripts/deps
	@$(MAKE) --no-print-directory all
	@test -f tests/vm/demo.sh || { echo "tests/vm/demo.sh is not written yet" >&2; exit 1; }
	tests/vm/run tests/vm/demo.sh

tables: userspace
	@scripts/tables

bench-sim: userspace
	@scripts/bench-sim

# election.ko against keepalived: one VM boot per configuration; the full
# run takes hours on 2 cores, QUICK=1 a few minutes (tests/bench/README).
bench-failover:
	@scripts/deps
	@$(MAKE) --no-print-directory all
	@QUICK="$(QUICK)" tests/bench/failover/run

bench-stability:
	@scripts/deps
	@$(MAKE) --no-print-directory all
	@QUICK="$(QUICK)" tests/bench/stability/run

bench-timers: all
	@KDIR="$(KDIR)" tests/bench/timer-lateness.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/sim clean
	-test ! -f tests/core/Makefile || $(MAKE) -C tests/core clean
	rm -rf build
