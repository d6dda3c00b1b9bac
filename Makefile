# SPDX-License-Identifier: GPL-2.0
# User entry points. `make` builds module/election.ko and the userspace
# tools; `make help` lists every target. The test, benchmark and other long
# runs are in tests/Makefile.inc, included below.
#
# Each target's one-line description is the `## ` comment on its line;
# `make help` prints those, so a new target documents itself there.
#
# Dependencies, one rule for every target of both files: what a target
# needs is named as its prerequisites, in the order it must happen:
# packages first (deps, deps-demo, deps-rt), then the build (all, or
# userspace where the module is not wanted); the recipe then only runs
# its own step and never calls $(MAKE) on a target of this Makefile
# ($(MAKE) -C DIR runs another directory's Makefile, as kbuild or
# tests/core's). .NOTPARALLEL keeps that order under -j: this file's
# targets run one after the other, each sub-make still in parallel.
# KDIR and KVER are evaluated when a recipe runs, so a build after deps
# sees the headers deps installed. scripts/check (make check) runs its
# stages itself, each counted, deps first.

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

.NOTPARALLEL:
.DEFAULT_GOAL := all
.PHONY: all module userspace deps deps-demo check demo man install uninstall \
	dkms-tree clean help

all: module userspace ## module/election.ko, userspace/electionctl, userspace/sim/electsim, tests/inject/elec-inject

module: ## module/election.ko (kbuild against KDIR)
	@test -n "$(KDIR)" || { echo "no kernel build dir: run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# tests/inject/elec-inject: the VM scenarios' frame injector
userspace: ## electionctl, electsim and elec-inject
	$(MAKE) -C userspace
	$(MAKE) -C userspace/sim
	$(MAKE) -C tests/inject

# Installs only what is missing (apt-get update only then); cheap otherwise.
deps: ## install the Debian packages the project needs, only those missing (root)
	@scripts/deps

# only what make demo needs: the build, QEMU, the stock kernel,
# busybox-static, python3, iproute2, kmod
deps-demo: ## install only the packages make demo needs (scripts/deps --demo)
	@scripts/deps --demo

# scripts/check: deps, build, style, kunit, utest, fuzz (60 s in all),
# packaging, compat, vmharness, vmtest; each stage's log in build/check
check: ## everything: last line "check: N passed, N failed" (scripts/check)
	@scripts/check

# the demo's time counts from the start of this make: packages, build, VM
ifneq ($(filter demo,$(MAKECMDGOALS)),)
DEMO_T0 := $(shell date +%s)
endif
demo: deps-demo all ## the 5-node demo in a VM (tests/vm/demo.py), installing only what it needs
	@tests/vm/run tests/vm/demo.py; rc=$$?; \
	echo "demo: $$(($$(date +%s) - $(or $(DEMO_T0),$$(date +%s)))) s in all (packages, build, VM); exit $$rc"; \
	exit $$rc

man: $(MAN_PAGES) ## build/man/electionctl.8 and electsim.1 (rst2man)

build/man/%: Documentation/man/%.rst VERSION
	@command -v rst2man >/dev/null || { echo "rst2man is missing (make deps: python3-docutils)" >&2; exit 1; }
	@mkdir -p build/man
	rst2man --halt=warning --no-generator --no-datestamp $< >$@.tmp && mv $@.tmp $@

# election.ko to /lib/modules/KVER/updates (+ depmod), electionctl to
# PREFIX/sbin, electsim to PREFIX/bin, man pages, bash completion,
# election@.service (and election-monitor@, election-track@), the
# Wireshark dissector (LUADIR), vip-hook to /usr/lib/election (HOOKDIR,
# whatever PREFIX); DESTDIR, PREFIX (/usr/local) and KVER (KDIR's release)
# honoured
install: all man ## install the module, tools, man pages, units, completion, dissector, vip-hook (DESTDIR, PREFIX, KVER)
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

# the same variables as make install
uninstall: ## remove what make install put (same variables)
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

# dkms add/build/install into build/dkms, not touching /lib/modules; the
# VM scenarios load it
dkms-tree: ## dkms add/build/install into build/dkms (scripts/dkms-tree)
	@KDIR="$(KDIR)" KVER="$(KVER)" scripts/dkms-tree

clean: ## remove build products
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C userspace/sim clean
	$(MAKE) -C tests/inject clean
	$(MAKE) -C tests/lists clean
	$(MAKE) -C tests/core clean
	$(MAKE) -C tests/fuzz clean
	rm -rf build

# the `## ` comments of this file and tests/Makefile.inc, in their order
help: ## this list
	@awk -F ':.*## ' '/^[a-zA-Z0-9_.%/-]+:.*## / { printf "  %-18s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# optional: the election-dkms package's source (debian/rules) has no tests/,
# and DKMS runs `make module` there
-include tests/Makefile.inc
