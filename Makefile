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

.PHONY: all setup check demo module runtime collectives tools selftests unit-tests faults clean \
	lint need-setup install

all: module runtime collectives tools selftests unit-tests faults

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

# --- kernels/: compute-kernel program emitters, linked (hidden) into both libraries -------
# -ffp-contract=off: the host reference must round like the card (no fused multiply-add).
KERNELS_SRC := $(wildcard kernels/*.c)
KERNELS_HDR := $(wildcard kernels/*.h) uapi/drm/swai_program.h
KERNELS_CFLAGS := -Ikernels -ffp-contract=off

# --- libsdaa: versioned shared library + pkg-config --------------------------------
SDAA_SOVER := 0
SDAA_VER := 0.4.0
RT_SRC := $(wildcard runtime/*.c)
RT_HDR := $(wildcard runtime/*.h runtime/include/*.h) uapi/drm/swai_accel.h $(KERNELS_HDR)
RT_CFLAGS := $(USER_CFLAGS) -Iruntime/include -Iruntime -Itools/testing $(KERNELS_CFLAGS)
LIBSDAA := $(B)/lib/libsdaa.so.$(SDAA_VER)
SDAA_LINK := -L$(B)/lib -lsdaa
runtime: $(LIBSDAA) $(B)/lib/pkgconfig/sdaa.pc
$(LIBSDAA): $(RT_SRC) $(KERNELS_SRC) $(RT_HDR) runtime/libsdaa.map
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -fPIC -shared -fvisibility=hidden \
		-Wl,-soname,libsdaa.so.$(SDAA_SOVER) -Wl,--version-script=runtime/libsdaa.map \
		-Wl,--no-undefined -DSDAA_SHARED -o $@ $(RT_SRC) $(KERNELS_SRC) $(DRM_LIBS) -lnuma -lpthread -lm
	ln -sf libsdaa.so.$(SDAA_VER) $(B)/lib/libsdaa.so.$(SDAA_SOVER)
	ln -sf libsdaa.so.$(SDAA_SOVER) $(B)/lib/libsdaa.so
# In the build tree the .pc points at build/ and the source headers.
$(B)/lib/pkgconfig/sdaa.pc: runtime/sdaa.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(B)|; s|@LIBDIR@|$(B)/lib|; s|@INCLUDEDIR@|$(TOP)/runtime/include|' \
		-e 's|@VERSION@|$(SDAA_VER)|' $< >$@

# --- libswccl: collectives among a card's core groups, on libsdaa ------------------------
SWCCL_SOVER := 0
SWCCL_VER := 0.2.0
CCL_SRC := $(wildcard collectives/*.c)
CCL_HDR := $(wildcard collectives/*.h collectives/include/*.h) uapi/drm/swai_program.h \
	runtime/include/sdaa_runtime.h
CCL_CFLAGS := $(USER_CFLAGS) -Icollectives/include -Icollectives -Iruntime/include $(KERNELS_CFLAGS)
LIBSWCCL := $(B)/lib/libswccl.so.$(SWCCL_VER)
SWCCL_LINK := -L$(B)/lib -lswccl -lsdaa
collectives: $(LIBSWCCL) $(B)/lib/pkgconfig/swccl.pc
$(LIBSWCCL): $(CCL_SRC) $(KERNELS_SRC) $(CCL_HDR) $(KERNELS_HDR) collectives/libswccl.map $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) $(CCL_CFLAGS) -fPIC -shared -fvisibility=hidden \
		-Wl,-soname,libswccl.so.$(SWCCL_SOVER) -Wl,--version-script=collectives/libswccl.map \
		-Wl,--no-undefined -o $@ $(CCL_SRC) $(KERNELS_SRC) $(SDAA_LINK) -lpthread -lm
	ln -sf libswccl.so.$(SWCCL_VER) $(B)/lib/libswccl.so.$(SWCCL_SOVER)
	ln -sf libswccl.so.$(SWCCL_SOVER) $(B)/lib/libswccl.so
$(B)/lib/pkgconfig/swccl.pc: collectives/swccl.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(B)|; s|@LIBDIR@|$(B)/lib|; s|@INCLUDEDIR@|$(TOP)/collectives/include|' \
		-e 's|@VERSION@|$(SWCCL_VER)|' $< >$@

PREFIX ?= /usr/local
install: runtime
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 0755 $(LIBSDAA) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libsdaa.so.$(SDAA_VER) $(DESTDIR)$(PREFIX)/lib/libsdaa.so.$(SDAA_SOVER)
	ln -sf libsdaa.so.$(SDAA_SOVER) $(DESTDIR)$(PREFIX)/lib/libsdaa.so
	install -m 0644 runtime/include/sdaa_runtime.h $(DESTDIR)$(PREFIX)/include/
	install -d $(DESTDIR)$(PREFIX)/include/drm
	install -m 0644 uapi/drm/swai_program.h $(DESTDIR)$(PREFIX)/include/drm/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(PREFIX)/lib|; s|@INCLUDEDIR@|$(PREFIX)/include|' \
		-e 's|@VERSION@|$(SDAA_VER)|' runtime/sdaa.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/sdaa.pc

# --- userspace tools ------------------------------------------------------------------
TOOLS := $(B)/bin/swai-smi $(B)/bin/sdaa-alloc-bench $(B)/bin/sdaa-bandwidth $(B)/bin/swccl-bench \
	$(B)/bin/swccl-mlp
tools: $(TOOLS)
# swccl-bench: the pure parts (data, model, report) are also the host unit test's.
BENCH_PURE := tools/swccl-bench-data.c tools/swccl-bench-model.c tools/swccl-bench-report.c \
	tools/swccl-mlp-model.c
BENCH_SRC := tools/swccl-bench.c tools/swccl-bench-run.c tools/swccl-bench-summary.c \
	tools/swccl-bench-fused.c tools/swccl-tp.c kernels/swk_ref.c $(BENCH_PURE)
BENCH_HDR := $(wildcard tools/swccl-bench*.h) tools/swccl-tp.h tools/swccl-mlp-model.h \
	collectives/include/swccl.h $(KERNELS_HDR) \
	runtime/include/sdaa_runtime.h tools/testing/splitmix64.h
BENCH_INC := -Iruntime/include -Icollectives/include -Itools/testing
$(B)/bin/swccl-bench: $(BENCH_SRC) $(BENCH_HDR) $(LIBSDAA) $(B)/lib/libswccl.so
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -g $(BENCH_INC) -I$(TOP)/uapi $(KERNELS_CFLAGS) -o $@ $(BENCH_SRC) \
		-L$(B)/lib -lswccl -lsdaa \
		-Wl,-rpath,'$$ORIGIN/../lib' -lm
# swccl-mlp: the TP+SP MLP block, fused and unfused, and the paper's Table 5.
MLP_SRC := tools/swccl-mlp.c tools/swccl-mlp-model.c tools/swccl-tp.c kernels/swk_ref.c
$(B)/bin/swccl-mlp: $(MLP_SRC) tools/swccl-mlp-model.h tools/swccl-tp.h $(KERNELS_HDR) \
		collectives/include/swccl.h runtime/include/sdaa_runtime.h $(LIBSDAA) \
		$(B)/lib/libswccl.so
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -g $(BENCH_INC) -I$(TOP)/uapi $(KERNELS_CFLAGS) -o $@ \
		$(MLP_SRC) -L$(B)/lib -lswccl -lsdaa -Wl,-rpath,'$$ORIGIN/../lib' -lm
$(B)/bin/sdaa-bandwidth: tools/sdaa-bandwidth.c runtime/include/sdaa_runtime.h $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -g -Iruntime/include -o $@ $< $(SDAA_LINK) \
		-Wl,-rpath,'$$ORIGIN/../lib' -lm
SUBALLOC_SRC := runtime/sdaa_suballoc.c runtime/sdaa_suballoc_index.c
SUBALLOC_HDR := $(wildcard runtime/sdaa_suballoc*.h)
$(B)/bin/sdaa-alloc-bench: tools/sdaa-alloc-bench.c $(SUBALLOC_SRC) $(SUBALLOC_HDR) \
		tools/testing/splitmix64.h $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -O2 -g -Iruntime/include -Iruntime -Itools/testing -o $@ $< \
		$(SUBALLOC_SRC) $(SDAA_LINK) -Wl,-rpath,'$$ORIGIN/../lib' -lpthread
$(B)/bin/swai-smi: tools/swai-smi.c runtime/swai_cards.c runtime/swai_cards.h uapi/drm/swai_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iruntime -o $@ $< runtime/swai_cards.c $(DRM_LIBS)

# --- selftests (run inside the VM) -----------------------------------------------------
ST_SRC := $(wildcard selftests/*.c)
ST_BIN := $(patsubst selftests/%.c,$(B)/selftests/%,$(ST_SRC))
ST_SH := $(patsubst selftests/%.sh,$(B)/selftests/%,$(wildcard selftests/*.sh))
selftests: need-setup $(ST_BIN) $(ST_SH)
$(B)/selftests/%: selftests/%.c $(wildcard selftests/*.h) runtime/swai_cards.c uapi/drm/swai_accel.h \
		$(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iruntime -Iruntime/include -Itools/testing -isystem $(SWAI_KSELFTEST) \
		-Wno-clobbered \
		-o $@ $< runtime/swai_cards.c $(SDAA_LINK) $(DRM_LIBS) -lpthread
# The kernels selftest compares the card with the host reference (kernels/swk_ref.c)
# and builds programs of its own with the emitters.
$(B)/selftests/sdaa_kernels_test: selftests/sdaa_kernels_test.c $(wildcard selftests/*.h) \
		runtime/swai_cards.c uapi/drm/swai_accel.h $(KERNELS_SRC) $(KERNELS_HDR) $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(KERNELS_CFLAGS) -Iruntime -Iruntime/include -Itools/testing \
		-isystem $(SWAI_KSELFTEST) -Wno-clobbered \
		-o $@ $< $(KERNELS_SRC) runtime/swai_cards.c $(SDAA_LINK) $(DRM_LIBS) -lpthread -lm
# The swccl selftests also link libswccl.
$(B)/selftests/swccl_%: selftests/swccl_%.c $(wildcard selftests/*.h) runtime/swai_cards.c \
		uapi/drm/swai_accel.h $(LIBSDAA) $(LIBSWCCL)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Iruntime -Iruntime/include -Icollectives/include -Itools/testing \
		-isystem $(SWAI_KSELFTEST) -Wno-clobbered \
		-o $@ $< runtime/swai_cards.c $(SWCCL_LINK) $(DRM_LIBS) -lpthread -lm
# The fused-collectives selftest compares with the host reference (kernels/swk_ref.c).
$(B)/selftests/swccl_fused_test: selftests/swccl_fused_test.c $(wildcard selftests/*.h) \
		runtime/swai_cards.c uapi/drm/swai_accel.h kernels/swk_ref.c $(KERNELS_HDR) \
		$(LIBSDAA) $(LIBSWCCL)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(KERNELS_CFLAGS) -Iruntime -Iruntime/include -Icollectives/include \
		-Itools/testing -isystem $(SWAI_KSELFTEST) -Wno-clobbered -o $@ $< kernels/swk_ref.c \
		runtime/swai_cards.c $(SWCCL_LINK) $(DRM_LIBS) -lpthread -lm
$(B)/selftests/%: selftests/%.sh
	@mkdir -p $(dir $@)
	install -m 0755 $< $@

# --- host unit tests (no VM) ----------------------------------------------------------
UT_BIN := $(B)/tests/swai-core-test $(B)/tests/swai-mmu-test $(B)/tests/swai-cp-test \
	$(B)/tests/swai-exec-test $(B)/tests/swai-timing-test $(B)/tests/swai-compute-test \
	$(B)/tests/swai-async-test \
	$(B)/tests/sdaa-unit-test \
	$(B)/tests/suballoc-test $(B)/tests/swccl-bench-test $(B)/tests/swccl-unit-test \
	$(B)/tests/swk-unit-test
unit-tests: $(UT_BIN)
# The kernel emitters' programs run in a host interpreter (kernels/tests/swk-interp.h).
$(B)/tests/swk-unit-test: kernels/tests/swk-unit-test.c kernels/tests/swk-interp.h $(KERNELS_SRC) \
		$(KERNELS_HDR) tools/testing/tap.h tools/testing/splitmix64.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) $(KERNELS_CFLAGS) -Itools/testing -O1 $(SAN) -o $@ $< $(KERNELS_SRC) -lm
# libswccl's sources compiled into the test, under ASan/UBSan, without the
# files that call libsdaa: the cost model, shards, and every algorithm's
# programs run through the simulator on host memory.
CCL_UT_SRC := $(filter-out collectives/swccl_comm.c collectives/swccl_enqueue.c \
	collectives/swccl_launch.c collectives/swccl_group.c collectives/swccl_timeout.c \
	collectives/swccl_fused.c collectives/swccl_fused_exec.c,$(CCL_SRC))
$(B)/tests/swccl-unit-test: collectives/tests/swccl-unit-test.c $(CCL_UT_SRC) $(KERNELS_SRC) \
		$(CCL_HDR) $(KERNELS_HDR) kernels/tests/swk-interp.h \
		tools/testing/tap.h tools/testing/splitmix64.h
	@mkdir -p $(dir $@)
	$(CC) $(CCL_CFLAGS) -Itools/testing -Ikernels/tests -O1 $(SAN) -o $@ $< $(CCL_UT_SRC) \
		$(KERNELS_SRC) -lm
$(B)/tests/swccl-bench-test: tools/tests/swccl-bench-test.c $(BENCH_PURE) $(BENCH_HDR) \
		tools/testing/tap.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -g -O1 $(SAN) $(BENCH_INC) -Itools -o $@ $< $(BENCH_PURE) -lm
$(B)/tests/suballoc-test: runtime/tests/suballoc-test.c $(SUBALLOC_SRC) $(SUBALLOC_HDR) \
		tools/testing/tap.h tools/testing/splitmix64.h
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O1 $(SAN) -o $@ $< $(SUBALLOC_SRC) -lpthread
# The runtime's sources are compiled into the test (not the .so), so the
# internal functions are reachable and ASan/UBSan see all of it.
$(B)/tests/sdaa-unit-test: runtime/tests/sdaa-unit-test.c $(RT_SRC) $(KERNELS_SRC) $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O1 $(SAN) -o $@ runtime/tests/sdaa-unit-test.c $(RT_SRC) $(KERNELS_SRC) \
		$(DRM_LIBS) -lnuma -lpthread -lm
CORE_SRC := tools/qemu/swai-core.c tools/qemu/swai-mmu.c tools/qemu/swai-cp.c \
	tools/qemu/swai-cp-regs.c tools/qemu/swai-exec.c tools/qemu/swai-sync.c \
	tools/qemu/swai-mem.c tools/qemu/swai-timing.c tools/qemu/swai-reduce.c \
	tools/qemu/swai-div.c tools/qemu/swai-sched.c tools/qemu/swai-compute.c \
	tools/qemu/swai-arith.c tools/qemu/swai-philox.c
CORE_HDR := $(wildcard tools/qemu/swai-*.h tools/qemu/tests/*.h) \
	tools/testing/tap.h kernel/swai_regs.h uapi/drm/swai_program.h
$(B)/tests/swai-%-test: tools/qemu/tests/swai-%-test.c $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) -g -O1 $(SAN) -Ikernel -Itools/qemu -Itools/testing -o $@ \
		$< $(CORE_SRC) -lblas -lm

# --- the two commands -----------------------------------------------------------------
check: setup
	@$(MAKE) --no-print-directory all
	@tools/run-checks.sh

# The VM has no gnuplot: swccl-bench prints its plot scripts, swccl-plot.sh renders
# them on the host into build/swccl-bench-*.png; demo.rc keeps the VM's status.
demo: setup
	@$(MAKE) --no-print-directory all
	@{ SWAI_VM_NO_BUILD=1 tools/swai-vm --cards 1 --hbm-mb 512 --timeout 2400 -- sh -c 'swai-smi && \
		echo && sdaa-bandwidth && echo && \
		swccl-bench allgather -b 1M -e 32M -f 2 -n 2 -w 1 -a all \
		--plot /root/swccl-bench-allgather.png && \
		echo && swccl-bench reducescatter -b 1M -e 32M -f 2 -n 2 -w 1 -a all \
		--plot /root/swccl-bench-reducescatter.png && \
		echo && swccl-bench fused-ag -n 2 -w 1 && echo && swccl-bench fused-rs -n 2 -w 1 && \
		echo && swccl-mlp && echo && swccl-mlp --estimate'; echo $$? >$(B)/demo.rc; } | \
		tools/swccl-plot.sh $(B); exit $$(cat $(B)/demo.rc)

lint: need-setup
	$(SWAI_CHECKPATCH) --strict --no-tree --terse --show-types -f \
		kernel/*.c kernel/*.h uapi/drm/*.h

clean:
	rm -rf $(B)
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP) clean >/dev/null 2>&1
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP)/tools/vm/faults clean >/dev/null 2>&1
