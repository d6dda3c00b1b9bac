# SPDX-License-Identifier: GPL-2.0
# make -s -f tests/compat/flags.mk srctree=TREE: print the ELEC_HAVE_*
# flags that module/compat.mk probes from the kernel headers under TREE.
ccflags-y :=
include $(dir $(lastword $(MAKEFILE_LIST)))../../module/compat.mk
all:
	@echo $(ccflags-y)
