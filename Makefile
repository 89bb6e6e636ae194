# SW-IntraCC top-level Makefile.
#
#   make demo    boot a VM with an emulated SW-AI card and run the main job
#   make check   install/build everything, host unit tests, VM selftests
#   make setup   install Debian packages, fetch the guest kernel, build QEMU
#   make         build swai.ko, the tools and the tests (after setup)
#
# Everything built lands in build/; what setup fetches is cached in
# $(SWAI_CACHE) (default ~/.cache/swai-intracc) and described by env.mk there.

SWAI_CACHE ?= $(HOME)/.cache/swai-intracc
export SWAI_CACHE
-include $(SWAI_CACHE)/env.mk

TOP := $(CURDIR)
B := $(TOP)/build

CC := gcc
CSTD := -std=gnu11
WARN := -Wall -Wextra -Werror
DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
DRM_LIBS := $(shell pkg-config --libs libdrm 2>/dev/null)
USER_CFLAGS := $(CSTD) $(WARN) -O2 -g -I$(TOP)/uapi $(DRM_CFLAGS)
# Host unit tests run under ASan/UBSan; every finding is fatal.
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all setup check demo module tools selftests unit-tests faults clean lint need-setup

all: module tools selftests unit-tests faults

setup:
	@tools/setup.sh

need-setup:
	@test -n "$(SWAI_KDIR)" || { echo "make: run 'make setup' first" >&2; exit 1; }

# --- swai.ko (Kbuild at the top of the tree) -------------------------------------------
KSRC := $(wildcard kernel/*.c kernel/*.h uapi/drm/*.h) Kbuild
module: need-setup $(B)/swai.ko
$(B)/swai.ko: $(KSRC)
	@mkdir -p $(B)
	@$(MAKE) -C $(SWAI_KDIR) M=$(TOP) W=1 modules >$(B)/kbuild.log 2>&1 || \
		{ cat $(B)/kbuild.log; exit 1; }
	@! grep -q 'warning:' $(B)/kbuild.log || \
		{ cat $(B)/kbuild.log; echo "make: W=1 warnings in swai.ko" >&2; exit 1; }
	cp swai.ko $@

# A deliberately broken module: proves swai-vm fails on an oops or a WARN.
faults: need-setup tools/vm/faults/swai_fault.ko
tools/vm/faults/swai_fault.ko: tools/vm/faults/swai_fault.c tools/vm/faults/Kbuild
	@$(MAKE) -C $(SWAI_KDIR) M=$(TOP)/tools/vm/faults W=1 modules >$(B)/kbuild-faults.log 2>&1 || \
		{ cat $(B)/kbuild-faults.log; exit 1; }

# --- userspace tools ------------------------------------------------------------------
TOOLS := $(B)/bin/swai-smi
tools: $(TOOLS)
$(B)/bin/swai-smi: tools/swai-smi.c uapi/drm/swai_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -o $@ $< $(DRM_LIBS)

# --- selftests (run inside the VM) -----------------------------------------------------
ST_SRC := $(wildcard selftests/*.c)
ST_BIN := $(patsubst selftests/%.c,$(B)/selftests/%,$(ST_SRC))
ST_SH := $(patsubst selftests/%.sh,$(B)/selftests/%,$(wildcard selftests/*.sh))
selftests: need-setup $(ST_BIN) $(ST_SH)
$(B)/selftests/%: selftests/%.c selftests/swai_test.h uapi/drm/swai_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -isystem $(SWAI_KSELFTEST) -Wno-clobbered -o $@ $< $(DRM_LIBS) -lpthread
$(B)/selftests/%: selftests/%.sh
	@mkdir -p $(dir $@)
	install -m 0755 $< $@

# --- host unit tests (no VM) ----------------------------------------------------------
UT_BIN := $(B)/tests/swai-core-test
unit-tests: $(UT_BIN)
$(B)/tests/swai-core-test: tools/qemu/tests/swai-core-test.c tools/qemu/swai-core.c \
		tools/qemu/swai-core.h kernel/swai_regs.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -g -O1 $(SAN) -Ikernel -Itools/qemu -o $@ \
		tools/qemu/tests/swai-core-test.c tools/qemu/swai-core.c

# --- the two commands -----------------------------------------------------------------
check: setup
	@$(MAKE) --no-print-directory all
	@tools/run-checks.sh

demo: setup
	@$(MAKE) --no-print-directory all
	@SWAI_VM_NO_BUILD=1 tools/swai-vm --cards 1 -- swai-smi

lint: need-setup
	$(SWAI_CHECKPATCH) --strict --no-tree --terse --show-types -f \
		kernel/*.c kernel/*.h uapi/drm/*.h

clean:
	rm -rf $(B)
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP) clean >/dev/null 2>&1
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP)/tools/vm/faults clean >/dev/null 2>&1
