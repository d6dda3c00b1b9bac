# SPDX-License-Identifier: GPL-2.0
# User entry points. `make` builds module/election.ko and userspace tools.

KDIR ?= $(shell k=/lib/modules/$$(uname -r)/build; \
	if [ -d "$$k" ]; then echo "$$k"; \
	else ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1; fi)

.PHONY: all module userspace clean
all: module userspace

module:
	@test -n "$(KDIR)" || { echo "no kernel build dir: run 'make deps' or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
