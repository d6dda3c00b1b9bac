# SPDX-License-Identifier: GPL-2.0
# User entry points. `make` builds module/election.ko and userspace tools.
#
#   make            module/election.ko, userspace/electionctl, userspace/sim/electsim,
#                   tests/inject/elec-inject (the VM scenarios' frame injector)
#   make deps       install the Debian packages the project needs (root)
#   make style      checkpatch --strict, W=1 and sparse (scripts/style)
#   make kunit      KUnit suites on UML (kunit/run)
#   make utest      userspace unit tests (tests/core, userspace, userspace/sim,
#                   tests/inject, tests/lists)
#   make fuzz       libFuzzer targets over the core and the codec, FUZZ_TIME
#                   seconds each (default 300), then line coverage
#                   (tests/fuzz; make check runs them 60 s in all)
#   make vmtest     integration scenarios in QEMU VMs (scripts/vmtest);
#                   DETECTOR=adaptive: every group with the adaptive detector
#   make vmtest-multi  3 guests (MULTI_NODES), each its own kernel, on one
#                   bridge: bully and ring across machines, link cut and
#                   kill, failover measured without a shared clock; ~4 min;
#                   not in check (tests/vm/multi/run.py)
#   make bench-multi  failover across 3 guests (MULTI_RUNS runs of
#                   vmtest-multi) next to the one-kernel benchmark of the
#                   same configuration (tests/vm/multi/bench); ~20 min
#   make vmtest-rt  the same scenarios on Debian's PREEMPT_RT kernel
#                   (VM_KERNEL=rt; make deps-rt installs it); not in check
#   make vmtest-debug  the same scenarios on the debug kernel (KASAN, UBSAN,
#                   lockdep, debug objects, kmemleak); not part of check
#   make vmtest-long  long scenarios (tests/vm/long: partitions flapping for
#                   a minute); not part of check
#   make vmtest-faults  netem on every link (10 min per algorithm), a leader
#                   flapping 1000 times, 1000 rmmod/insmod cycles under load
#                   (also on the debug kernel): ~3.5 h on 2 idle cores
#                   (2026-11-27); not part of check
#   make vmtest-scale  128 nodes in one VM, every algorithm: convergence,
#                   failover, memory per instance and peer; not part of check
#   make debug-kernel  build (once, cached) that kernel (scripts/debug-kernel)
#   make check      all of the above; last line "check: N passed, N failed"
#   make demo       the 5-node demo in a VM (tests/vm/demo.sh); installs
#                   only the packages it needs (scripts/deps --demo)
#   make tables     Documentation/results/message-counts.md and its pngs from electsim
#   make sim-search  electsim --check for hours (SIM_SEARCH_HOURS, default
#                   2) over every algorithm and option, three timings and
#                   the random, focused and harsh fault generators, from a
#                   fresh base seed (SIM_SEED repeats one); writes
#                   Documentation/results/sim-search.md; not in check
#   make bench-sim  simulator speed: four large cases (bully and ring at
#                   N = 10,000, ring-all, ring-list), time, memory, ns/hop
#   make bench-failover [QUICK=1]  failover latency against keepalived in VMs
#                   (tests/bench/failover; not part of check)
#   make bench-stability [QUICK=1]  smallest stable hb-interval, 16 nodes
#                   (tests/bench/stability; not part of check)
#   make bench-detector [QUICK=1]  the failure detectors' quality (detection
#                   time, mistake recurrence and duration), fixed and
#                   adaptive settings and keepalived, in VMs, under 3 hours
#                   (tests/bench/detector; not part of check)
#   make bench-timers  timer lateness per timer mode, quiet and under a
#                   CPU hog, in VMs (tests/bench/timer-lateness.sh)
#   make bench-rt   bench-failover and bench-timers on the stock and the
#                   PREEMPT_RT kernel, side by side (tests/bench/rt); ~55 min
#   make bench-auth [BENCH_OLD_KO=PATH]  forged frames a keyed group absorbs
#                   with no suspicion or election, this module and an older
#                   one (tests/bench/auth/run; a VM, ~3 min a module)
#   make install    election.ko to /lib/modules/KVER/updates (+ depmod),
#                   electionctl to PREFIX/sbin, electsim to PREFIX/bin, man
#                   pages, bash completion, election@.service (and
#                   election-monitor@, election-track@), the
#                   Wireshark dissector (LUADIR), vip-hook to
#                   /usr/lib/election (HOOKDIR, whatever PREFIX); DESTDIR,
#                   PREFIX (/usr/local) and KVER (KDIR's release) honoured
#   make uninstall  remove what make install put (same variables)
#   make man        build/man/electionctl.8 and electsim.1 (rst2man)
#   make dkms-tree  dkms add/build/install into build/dkms (scripts/dkms-tree),
#                   not touching /lib/modules; the VM scenarios load it
#   make packaging  install/uninstall, DKMS, unit, man page, completion
#                   checks on the host (tests/packaging/run; in make check)
#   make compat-matrix  module/compat.h against stub headers of each kernel
#                   API era, 6.1 to next (tests/compat/run; in make check)
#   make compat     that, and election.ko built with W=1 against every
#                   installed /lib/modules/*/build: no warning (not in check)
#   make clean

# the running kernel's build dir, else the stock kernel's (Debian's
# linux-headers-amd64), else the newest generic one: scripts/kdir
KDIR ?= $(shell $(CURDIR)/scripts/kdir)

# the kernel release KDIR builds for (not uname -r: the host's kernel is not
# necessarily the one the module is for)
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR := $(PREFIX)/sbin
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
COMPDIR := $(PREFIX)/share/bash-completion/completions
UNITDIR := $(PREFIX)/lib/systemd/system
DOCDIR := $(PREFIX)/share/doc/election
# the example hook (dist/vip-hook): one path for make install and the
# Debian package, whatever PREFIX, as the docs name it
HOOKDIR ?= /usr/lib/election
# the Wireshark dissector; Wireshark loads Lua plugins by itself from its
# global plugin directory (tshark -G folders: on Debian
# /usr/lib/x86_64-linux-gnu/wireshark/plugins): set LUADIR to it for that
LUADIR ?= $(PREFIX)/share/election
MODDIR := /lib/modules/$(KVER)/updates
MAN_PAGES := build/man/electionctl.8 build/man/electsim.1

.PHONY: all module userspace clean deps style kunit utest fuzz vmtest vmharness \
	check demo tables sim-search bench-sim bench-failover bench-stability bench-detector bench-timers bench-mac bench-auth vmtest-debug vmtest-long \
	vmtest-rt deps-rt vmtest-multi bench-multi bench-rt \
	vmtest-faults vmtest-scale \
	debug-kernel install uninstall man dkms-tree packaging compat compat-matrix
all: module userspace

module:
	@test -n "$(KDIR)" || { echo "no kernel build dir: run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace
	$(MAKE) -C userspace/sim
	$(MAKE) -C tests/inject

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
	$(MAKE) -C tests/inject check
	$(MAKE) -C tests/lists check

# libFuzzer (clang): FUZZ_TIME seconds per target; new inputs are kept in
# build/fuzz/corpus, crashes go to build/fuzz/artifacts
FUZZ_TIME ?= 300
fuzz:
	$(MAKE) -C tests/fuzz fuzz FUZZ_TIME=$(FUZZ_TIME)

# Scenarios need the module and electionctl; KDIR tells the VM which kernel.
vmtest: all
	@KDIR="$(KDIR)" DETECTOR="$(DETECTOR)" scripts/vmtest

# The debug kernel builds its own election.ko (tests/vm/run), so only
# electionctl is needed here.
vmtest-debug: userspace
	@VM_KERNEL=debug scripts/vmtest

# Debian's PREEMPT_RT kernel (make deps-rt): every scenario on it, with an
# election.ko that tests/vm/run builds for it (build/module-<release>/)
deps-rt:
	@scripts/deps --rt

vmtest-rt: all
	@VM_KERNEL=rt scripts/vmtest

# several machines: MULTI_NODES guests on one bridge (tests/vm/multi)
vmtest-multi: all
	@python3 tests/vm/multi/run.py

# failover across machines (MULTI_RUNS runs of vmtest-multi) next to the
# one-kernel benchmark of the same configuration; ~20 min
bench-multi: all
	@scripts/deps
	@tests/vm/multi/bench

# scenarios too long for make check (tests/vm/long): partitions that flap
# for a minute, ...
vmtest-long: all
	@KDIR="$(KDIR)" scripts/vmtest tests/vm/long/*.sh

# faults (tests/vm/faults; knobs FAULTS_*: scripts/vmtest-faults) and scale
# (tests/vm/scale; SCALE_NODES, SCALE_SYSTEMS); both long, not in check
vmtest-faults: all
	@KDIR="$(KDIR)" scripts/vmtest-faults

vmtest-scale: all
	@KDIR="$(KDIR)" scripts/vmtest-scale

debug-kernel:
	@scripts/debug-kernel

vmharness:
	@tests/vm/selftest.sh

compat-matrix:
	@tests/compat/run

compat:
	@tests/compat/run --builds

# deps first, then a fresh make (KDIR is computed after the headers exist).
check:
	@scripts/check

# only the packages the demo needs (scripts/deps --demo), then its time
demo:
	@t0=$$(date +%s); \
	scripts/deps --demo && $(MAKE) --no-print-directory all && \
	tests/vm/run tests/vm/demo.sh; rc=$$?; \
	echo "demo: $$(($$(date +%s) - t0)) s in all (packages, build, VM); exit $$rc"; \
	exit $$rc

tables: userspace
	@scripts/tables

bench-sim: userspace
	@scripts/bench-sim

sim-search:
	@scripts/sim-search

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

bench-detector:
	@scripts/deps
	@$(MAKE) --no-print-directory all
	@QUICK="$(QUICK)" tests/bench/detector/run

bench-timers: all
	@KDIR="$(KDIR)" tests/bench/timer-lateness.sh

# bench-failover and bench-timers on the stock and the PREEMPT_RT kernel,
# side by side (tests/bench/rt); ~55 min
bench-rt: all
	@scripts/deps --rt
	@tests/bench/rt/run

# what a keyed group absorbs of a flood of forged frames, with no
# suspicion and no election; BENCH_OLD_KO=PATH adds an older module's
# figures beside this tree's (tests/bench/auth/run)
bench-auth: all
	@BENCH_OLD_KO="$(BENCH_OLD_KO)" tests/bench/auth/run

# the per-frame cost of SipHash-2-4 against HMAC-SHA256 in the VM's kernel
bench-mac:
	@KDIR="$(KDIR)" tests/bench/mac/run

man: $(MAN_PAGES)

build/man/%: Documentation/man/%.rst VERSION
	@command -v rst2man >/dev/null || { echo "rst2man is missing (make deps: python3-docutils)" >&2; exit 1; }
	@mkdir -p build/man
	rst2man --halt=warning --no-generator --no-datestamp $< >$@.tmp && mv $@.tmp $@

install: all man
	@test -n "$(KVER)" || { echo "install: no kernel release (set KDIR or KVER)" >&2; exit 1; }
	install -D -m 0644 module/election.ko $(DESTDIR)$(MODDIR)/election.ko
	install -D -m 0755 userspace/electionctl $(DESTDIR)$(SBINDIR)/electionctl
	install -D -m 0755 userspace/sim/electsim $(DESTDIR)$(BINDIR)/electsim
	install -D -m 0644 build/man/electionctl.8 $(DESTDIR)$(MANDIR)/man8/electionctl.8
	install -D -m 0644 build/man/electsim.1 $(DESTDIR)$(MANDIR)/man1/electsim.1
	install -D -m 0644 dist/electionctl.bash-completion $(DESTDIR)$(COMPDIR)/electionctl
	@mkdir -p build
	sed 's|@SBINDIR@|$(SBINDIR)|g' dist/election@.service.in >build/election@.service
	install -D -m 0644 build/election@.service $(DESTDIR)$(UNITDIR)/election@.service
	sed 's|@SBINDIR@|$(SBINDIR)|g; s|@HOOKDIR@|$(HOOKDIR)|g' dist/election-monitor@.service.in >build/election-monitor@.service
	install -D -m 0644 build/election-monitor@.service $(DESTDIR)$(UNITDIR)/election-monitor@.service
	sed 's|@SBINDIR@|$(SBINDIR)|g' dist/election-track@.service.in >build/election-track@.service
	install -D -m 0644 build/election-track@.service $(DESTDIR)$(UNITDIR)/election-track@.service
	install -D -m 0644 dist/example.batch $(DESTDIR)$(DOCDIR)/example.batch
	install -D -m 0755 dist/vip-hook $(DESTDIR)$(HOOKDIR)/vip-hook
	install -D -m 0644 dist/election.lua $(DESTDIR)$(LUADIR)/election.lua
	@if [ -z "$(DESTDIR)" ]; then echo "depmod -a $(KVER)"; depmod -a $(KVER); \
	else echo "install: DESTDIR set: depmod not run (run depmod $(KVER) once the files are in place)"; fi

uninstall:
	@test -n "$(KVER)" || { echo "uninstall: no kernel release (set KDIR or KVER)" >&2; exit 1; }
	rm -f $(DESTDIR)$(MODDIR)/election.ko $(DESTDIR)$(SBINDIR)/electionctl \
		$(DESTDIR)$(BINDIR)/electsim $(DESTDIR)$(MANDIR)/man8/electionctl.8 \
		$(DESTDIR)$(MANDIR)/man1/electsim.1 $(DESTDIR)$(COMPDIR)/electionctl \
		$(DESTDIR)$(UNITDIR)/election@.service \
		$(DESTDIR)$(UNITDIR)/election-monitor@.service \
		$(DESTDIR)$(UNITDIR)/election-track@.service $(DESTDIR)$(DOCDIR)/example.batch \
		$(DESTDIR)$(HOOKDIR)/vip-hook \
		$(DESTDIR)$(LUADIR)/election.lua
	-rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(HOOKDIR) 2>/dev/null
	@if [ -z "$(DESTDIR)" ]; then echo "depmod -a $(KVER)"; depmod -a $(KVER); fi

dkms-tree:
	@KDIR="$(KDIR)" KVER="$(KVER)" scripts/dkms-tree

# install/uninstall, DKMS, the unit, man page and completion (no VM)
packaging: all
	@KDIR="$(KDIR)" tests/packaging/run

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/sim clean
	$(MAKE) -C tests/inject clean
	$(MAKE) -C tests/lists clean
	-test ! -f tests/core/Makefile || $(MAKE) -C tests/core clean
	$(MAKE) -C tests/fuzz clean
	rm -rf build
