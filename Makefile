# SW-IntraCC top-level Makefile.
#
#   make demo    boot a VM with an emulated SW-AI card and run the main job
#   make check   install/build everything, host unit tests, VM selftests
#   make setup   install Debian packages, fetch the guest kernel, build QEMU
#   make         build swai.ko, the libraries, the tools and the tests (after setup)
#
# Everything built lands in build/; what setup fetches is cached in
# $(SWAI_CACHE) (default ~/.cache/swai-intracc) and described by env.mk there.
#
# Every userspace component is compiled once per flavour and archived:
#   build/obj/  -O2, position independent, hidden symbols: the libraries and tools
#   build/san/  -O1 under ASan/UBSan: the host unit tests
# and linked from there; nothing compiles another component's .c files.
# Header dependencies come from the compiler (-MMD).

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
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
# The cluster library's: jansson (topology and schedule files), libxml2 (MSCCL's XML).
CLUSTER_LIBS := -ljansson $(shell pkg-config --libs libxml-2.0 2>/dev/null)
# The simulator's: SimGrid (Debian's libsimgrid-dev), through its C API.
SIMGRID_CFLAGS := $(shell pkg-config --cflags simgrid 2>/dev/null)
SIMGRID_LIBS := $(shell pkg-config --libs simgrid 2>/dev/null || echo -lsimgrid)
# swccl-sim's allocator: SimGrid allocates and frees a few objects per simulated
# transfer, and gperftools' tcmalloc takes 15-25 % off a 1024-rank ring's wall
# time against glibc's malloc (Documentation/cluster.md §8).
TCMALLOC_LIBS := $(shell pkg-config --libs libtcmalloc_minimal 2>/dev/null || echo -ltcmalloc_minimal)
# The synthesizer's MILP: COIN-OR CBC (Debian's coinor-libcbc-dev), through its C API.
CBC_CFLAGS := $(shell pkg-config --cflags cbc 2>/dev/null)
CBC_LIBS := $(shell pkg-config --libs cbc 2>/dev/null || echo -lCbcSolver -lCbc)
# Public headers every userspace component may include.
INC := -I$(TOP)/uapi -Iruntime/include -Icollectives/include -Iruntime/kernels -Itools/card \
	-Itools/lib
BASE_CFLAGS := $(CSTD) $(WARN) -g $(INC) $(DRM_CFLAGS) -MMD -MP
# Host unit tests run under ASan/UBSan; every finding is fatal.
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Extra flags per source directory (private headers of a component stay its own).
# -ffp-contract=off: the emitters' host reference must round like the card
# (no fused multiply-add).
DIRFLAGS_runtime := -Iruntime
DIRFLAGS_runtime/tests := -Iruntime
DIRFLAGS_runtime/kernels := -ffp-contract=off
DIRFLAGS_runtime/kernels/tests := -ffp-contract=off -Iruntime/kernels/tests -Ikernel
DIRFLAGS_collectives := -Icollectives -Ikernel -Itools/cluster
DIRFLAGS_collectives/tests := -Icollectives -Ikernel -Iruntime/kernels/tests -Itools/cluster
DIRFLAGS_tools/bench := -Iruntime -Itools/bench
DIRFLAGS_tools/bench/tests := -Itools/bench
DIRFLAGS_tools/smi := -Iruntime
DIRFLAGS_tools/card := -Ikernel
DIRFLAGS_tools/card/tests := -Ikernel -Itools/card/tests
DIRFLAGS_tools/cluster := -DSWAI_TOPO_DIR='"$(TOP)/tools/cluster/topologies"' $(XML_CFLAGS) -Ikernel
DIRFLAGS_tools/cluster/tests := -Itools/cluster
DIRFLAGS_tools/sim := -Itools/cluster $(SIMGRID_CFLAGS)
DIRFLAGS_tools/synth := -Itools/cluster $(CBC_CFLAGS)
DIRFLAGS_tools/synth/tests := -Itools/cluster -Itools/synth $(CBC_CFLAGS)
DIRFLAGS_tools/sim/tests := -Itools/cluster -Itools/sim $(SIMGRID_CFLAGS)
DIRFLAGS_tools/qemu := -Ikernel -Itools/cluster -I$(B)/gen
DIRFLAGS_tools/qemu/tests := -Ikernel -Itools/qemu -Itools/cluster -I$(B)/gen
DIRFLAGS_selftests := -Iruntime -Ikernel -isystem $(SWAI_KSELFTEST) -Wno-clobbered
dirflags = $(DIRFLAGS_$(patsubst %/,%,$(dir $(1))))

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -O2 -fPIC -fvisibility=hidden $(call dirflags,$<) -c -o $@ $<
$(B)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -O1 $(SAN) $(call dirflags,$<) -c -o $@ $<
# obj FLAVOUR, SOURCES: the objects of SOURCES in build/FLAVOUR/.
objs = $(patsubst %.c,$(B)/$(1)/%.o,$(2))
# An archive of objects, rebuilt from scratch so removed files leave it too.
define archive
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^
endef

.PHONY: all setup check demo figures module libs runtime collectives tools selftests unit-tests faults \
	dkms-source dkms-install dkms-uninstall \
	clean lint need-setup install uninstall fuzz debug-kernel check-debug

all: module libs tools selftests unit-tests faults

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

# --- swai.ko as a DKMS package (kernel/dkms/) -----------------------------------------
# dkms-source stages the package (Kbuild, kernel/, uapi/drm/, dkms.conf, the
# feature probe) in build/dkms/; dkms-install adds, builds and installs it for
# DKMS_KVER (default: the running kernel; that kernel's headers must be there);
# dkms-uninstall removes it from every kernel.  Root only, like dkms.
DKMS_VERSION := $(shell awk '/define DRM_SWAI_UAPI_MAJOR/ { M = $$3 } \
	/define DRM_SWAI_UAPI_MINOR/ { m = $$3 } END { print M "." m }' uapi/drm/swai_accel.h)
DKMS_SRC := $(B)/dkms/swai-$(DKMS_VERSION)
DKMS_KVER ?= $(shell uname -r)
dkms-source: $(KSRC) kernel/dkms/dkms.conf.in kernel/dkms/swai-probe.sh
	@rm -rf $(DKMS_SRC) && mkdir -p $(DKMS_SRC)/kernel $(DKMS_SRC)/uapi/drm
	@cp Kbuild kernel/dkms/swai-probe.sh $(DKMS_SRC)/
	@cp kernel/*.c kernel/*.h $(DKMS_SRC)/kernel/
	@cp uapi/drm/*.h $(DKMS_SRC)/uapi/drm/
	@sed 's/@VERSION@/$(DKMS_VERSION)/' kernel/dkms/dkms.conf.in >$(DKMS_SRC)/dkms.conf
	@echo "dkms-source: $(DKMS_SRC)"
dkms-install: dkms-source
	@command -v dkms >/dev/null || { echo "make: no dkms (apt-get install dkms)" >&2; exit 1; }
	-@dkms remove swai/$(DKMS_VERSION) --all >/dev/null 2>&1
	rm -rf /usr/src/swai-$(DKMS_VERSION) && cp -r $(DKMS_SRC) /usr/src/
	dkms add swai/$(DKMS_VERSION)
	dkms build swai/$(DKMS_VERSION) -k $(DKMS_KVER)
	dkms install swai/$(DKMS_VERSION) -k $(DKMS_KVER)
dkms-uninstall:
	-dkms remove swai/$(DKMS_VERSION) --all
	rm -rf /usr/src/swai-$(DKMS_VERSION)

# A deliberately broken module: proves swai-vm fails on an oops or a WARN.
faults: need-setup tools/vm/faults/swai_fault.ko
tools/vm/faults/swai_fault.ko: tools/vm/faults/swai_fault.c tools/vm/faults/Kbuild
	@$(MAKE) -C $(SWAI_KDIR) M=$(TOP)/tools/vm/faults W=1 modules >$(B)/kbuild-faults.log 2>&1 || \
		{ cat $(B)/kbuild-faults.log; exit 1; }

# --- static components ------------------------------------------------------------------
# The card's definition (tools/card/): the instruction set, the arithmetic, the
# timing model and the engine that runs programs, and the program builder.  Linked
# (hidden) into everything that builds, runs or times programs; an archive, so each
# links only what it uses (the cost model never pulls in the arithmetic or BLAS).
CARD_SRC := $(wildcard tools/card/*.c)
# The compute-kernel emitters (runtime/kernels/), linked hidden into libsdaa and libswccl.
SWK_SRC := $(filter-out runtime/kernels/swk_ref.c,$(wildcard runtime/kernels/*.c))
# Their bit-exact host reference: the tests' and the benchmarks' independent oracle.
SWKREF_SRC := runtime/kernels/swk_ref.c
# Finding the cards in /sys/class/accel: libsdaa, swai-smi and the selftests.
CARDS_SRC := runtime/swai_cards.c
# The device suballocator (libsdaa's second level), also benchmarked alone.
SUBALLOC_SRC := runtime/sdaa_suballoc.c runtime/sdaa_suballoc_index.c
# The swccl-bench parts without a card: data, models, reports (also the unit test's).
BENCH_PURE := tools/bench/swccl-bench-data.c tools/bench/swccl-bench-model.c \
	tools/bench/swccl-bench-report.c tools/bench/swccl-mlp-model.c

# The cluster's two contracts (tools/cluster/): the topology file and the schedule
# format, the algorithms that generate schedules, and the checker that runs them.
CLUSTER_SRC := $(filter-out tools/cluster/swccl-sched.c,$(wildcard tools/cluster/*.c))

$(B)/obj/lib/libswaicard.a: $(call objs,obj,$(CARD_SRC)); $(archive)
$(B)/obj/lib/libswaicluster.a: $(call objs,obj,$(CLUSTER_SRC)); $(archive)
$(B)/san/lib/libswaicluster.a: $(call objs,san,$(CLUSTER_SRC)); $(archive)
$(B)/obj/lib/libswk.a: $(call objs,obj,$(SWK_SRC)); $(archive)
$(B)/obj/lib/libswkref.a: $(call objs,obj,$(SWKREF_SRC)); $(archive)
$(B)/obj/lib/libswaicards.a: $(call objs,obj,$(CARDS_SRC)); $(archive)
$(B)/obj/lib/libbenchpure.a: $(call objs,obj,$(BENCH_PURE)); $(archive)
# The tools' shared command-line values.
$(B)/obj/lib/libswaicli.a: $(call objs,obj,tools/lib/swai-cli.c); $(archive)
$(B)/san/lib/libswaicli.a: $(call objs,san,tools/lib/swai-cli.c); $(archive)
$(B)/san/lib/libswaicard.a: $(call objs,san,$(CARD_SRC)); $(archive)
$(B)/san/lib/libswk.a: $(call objs,san,$(SWK_SRC)); $(archive)
$(B)/san/lib/libswkref.a: $(call objs,san,$(SWKREF_SRC)); $(archive)
$(B)/san/lib/libswaicards.a: $(call objs,san,$(CARDS_SRC)); $(archive)
$(B)/san/lib/libsuballoc.a: $(call objs,san,$(SUBALLOC_SRC)); $(archive)
$(B)/san/lib/libbenchpure.a: $(call objs,san,$(BENCH_PURE)); $(archive)

# --- libsdaa: versioned shared library + pkg-config --------------------------------
SDAA_SOVER := 0
SDAA_VER := 0.4.0
RT_SRC := $(filter-out $(CARDS_SRC),$(wildcard runtime/*.c))
LIBSDAA := $(B)/lib/libsdaa.so.$(SDAA_VER)
SDAA_LINK := -L$(B)/lib -lsdaa
libs: runtime collectives
runtime: $(LIBSDAA) $(B)/lib/pkgconfig/sdaa.pc
$(LIBSDAA): $(call objs,obj,$(RT_SRC)) $(B)/obj/lib/libswk.a $(B)/obj/lib/libswaicard.a \
		$(B)/obj/lib/libswaicards.a \
		runtime/libsdaa.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libsdaa.so.$(SDAA_SOVER) -Wl,--version-script=runtime/libsdaa.map \
		-Wl,--no-undefined -o $@ $(filter %.o %.a,$^) $(DRM_LIBS) -lnuma -lpthread -lm
	ln -sf libsdaa.so.$(SDAA_VER) $(B)/lib/libsdaa.so.$(SDAA_SOVER)
	ln -sf libsdaa.so.$(SDAA_SOVER) $(B)/lib/libsdaa.so
# The unit test links the runtime's objects (not the .so), so its internals are reachable.
$(B)/obj/runtime/sdaa_card.o: BASE_CFLAGS += -DSDAA_SHARED
# In the build tree the .pc points at build/ and the source headers.
$(B)/lib/pkgconfig/sdaa.pc: runtime/sdaa.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(B)|; s|@LIBDIR@|$(B)/lib|; s|@INCLUDEDIR@|$(TOP)/runtime/include|' \
		-e 's|@VERSION@|$(SDAA_VER)|' $< >$@

# --- libswccl: collectives among a card's core groups, on libsdaa ------------------------
SWCCL_SOVER := 0
SWCCL_VER := 0.2.0
CCL_SRC := $(wildcard collectives/*.c)
LIBSWCCL := $(B)/lib/libswccl.so.$(SWCCL_VER)
SWCCL_LINK := -L$(B)/lib -lswccl -lsdaa
collectives: $(LIBSWCCL) $(B)/lib/pkgconfig/swccl.pc
$(LIBSWCCL): $(call objs,obj,$(CCL_SRC)) $(B)/obj/lib/libswk.a $(B)/obj/lib/libswaicluster.a \
		$(B)/obj/lib/libswaicard.a collectives/libswccl.map $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libswccl.so.$(SWCCL_SOVER) \
		-Wl,--version-script=collectives/libswccl.map -Wl,--no-undefined -o $@ \
		$(filter %.o %.a,$^) $(SDAA_LINK) $(CLUSTER_LIBS) -lpthread -lm
	ln -sf libswccl.so.$(SWCCL_VER) $(B)/lib/libswccl.so.$(SWCCL_SOVER)
	ln -sf libswccl.so.$(SWCCL_SOVER) $(B)/lib/libswccl.so
$(B)/lib/pkgconfig/swccl.pc: collectives/swccl.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(B)|; s|@LIBDIR@|$(B)/lib|; s|@INCLUDEDIR@|$(TOP)/collectives/include|' \
		-e 's|@VERSION@|$(SWCCL_VER)|' $< >$@

# --- make install / make uninstall: both libraries, headers, pkg-config, tools, udev ------
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
UDEVRULESDIR ?= /etc/udev/rules.d
# The topology presets; an installed tool finds them relative to its BINDIR.
TOPODIR = $(PREFIX)/share/swai/topologies
# Everything install puts down, relative to DESTDIR (uninstall removes these).
INSTALLED = $(LIBDIR)/libsdaa.so.$(SDAA_VER) $(LIBDIR)/libsdaa.so.$(SDAA_SOVER) \
	$(LIBDIR)/libsdaa.so $(LIBDIR)/libswccl.so.$(SWCCL_VER) \
	$(LIBDIR)/libswccl.so.$(SWCCL_SOVER) $(LIBDIR)/libswccl.so \
	$(LIBDIR)/pkgconfig/sdaa.pc $(LIBDIR)/pkgconfig/swccl.pc \
	$(INCLUDEDIR)/sdaa_runtime.h $(INCLUDEDIR)/swccl.h $(INCLUDEDIR)/drm/swai_program.h \
	$(addprefix $(BINDIR)/,$(notdir $(TOOLS))) $(UDEVRULESDIR)/70-swai.rules \
	$(addprefix $(TOPODIR)/,$(notdir $(wildcard tools/cluster/topologies/*.json)))
# .pc files for the installed paths.
define install-pc
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(2)|' $(1) >$(3)
endef
install: libs tools
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/drm $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(UDEVRULESDIR)
	install -m 0755 $(LIBSDAA) $(LIBSWCCL) $(DESTDIR)$(LIBDIR)/
	ln -sf libsdaa.so.$(SDAA_VER) $(DESTDIR)$(LIBDIR)/libsdaa.so.$(SDAA_SOVER)
	ln -sf libsdaa.so.$(SDAA_SOVER) $(DESTDIR)$(LIBDIR)/libsdaa.so
	ln -sf libswccl.so.$(SWCCL_VER) $(DESTDIR)$(LIBDIR)/libswccl.so.$(SWCCL_SOVER)
	ln -sf libswccl.so.$(SWCCL_SOVER) $(DESTDIR)$(LIBDIR)/libswccl.so
	install -m 0644 runtime/include/sdaa_runtime.h collectives/include/swccl.h \
		$(DESTDIR)$(INCLUDEDIR)/
	install -m 0644 uapi/drm/swai_program.h $(DESTDIR)$(INCLUDEDIR)/drm/
	$(call install-pc,runtime/sdaa.pc.in,$(SDAA_VER),$(DESTDIR)$(LIBDIR)/pkgconfig/sdaa.pc)
	$(call install-pc,collectives/swccl.pc.in,$(SWCCL_VER),$(DESTDIR)$(LIBDIR)/pkgconfig/swccl.pc)
	install -m 0755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	install -m 0644 tools/udev/70-swai.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -d $(DESTDIR)$(TOPODIR)
	install -m 0644 tools/cluster/topologies/*.json $(DESTDIR)$(TOPODIR)/
	@if [ -z "$(DESTDIR)" ]; then ldconfig; udevadm control --reload 2>/dev/null || true; fi
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/drm $(DESTDIR)$(TOPODIR) $(DESTDIR)$(PREFIX)/share/swai \
		2>/dev/null
	@if [ -z "$(DESTDIR)" ]; then ldconfig; fi

# --- userspace tools ------------------------------------------------------------------
TOOLS := $(B)/bin/swai-smi $(B)/bin/sdaa-alloc-bench $(B)/bin/sdaa-bandwidth $(B)/bin/sdaa-p2p \
	$(B)/bin/swccl-bench \
	$(B)/bin/swccl-mlp $(B)/bin/swccl-sched $(B)/bin/swccl-sim $(B)/bin/swccl-synth
tools: $(TOOLS)
RPATH := -Wl,-rpath,'$$ORIGIN/../lib'
BENCH_SRC := tools/bench/swccl-bench.c tools/bench/swccl-bench-run.c tools/bench/swccl-bench-launch.c \
	tools/bench/swccl-bench-summary.c tools/bench/swccl-bench-fused.c \
	tools/bench/swccl-bench-overhead.c tools/bench/swccl-bench-matrix.c tools/bench/swccl-tp.c
$(B)/bin/swccl-bench: $(call objs,obj,$(BENCH_SRC)) $(B)/obj/lib/libbenchpure.a $(B)/obj/lib/libswkref.a \
		$(B)/obj/lib/libswaicli.a \
		$(LIBSDAA) $(LIBSWCCL)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o %.a,$^) $(SWCCL_LINK) $(RPATH) -lm
# swccl-mlp: the TP+SP MLP block, fused and unfused, and the paper's Table 5.
MLP_SRC := tools/bench/swccl-mlp.c tools/bench/swccl-tp.c
$(B)/bin/swccl-mlp: $(call objs,obj,$(MLP_SRC)) $(B)/obj/lib/libbenchpure.a $(B)/obj/lib/libswkref.a \
		$(B)/obj/lib/libswaicli.a \
		$(LIBSDAA) $(LIBSWCCL)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o %.a,$^) $(SWCCL_LINK) $(RPATH) -lm
$(B)/bin/sdaa-bandwidth: $(call objs,obj,tools/bench/sdaa-bandwidth.c tools/bench/sdaa-bench-copy.c) \
		$(B)/obj/lib/libswaicli.a \
		$(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o %.a,$^) $(SDAA_LINK) $(RPATH) -lm
# Card-to-card bandwidth and latency matrices (the fabric, datasheet §15).
$(B)/bin/sdaa-p2p: $(call objs,obj,tools/bench/sdaa-p2p.c tools/bench/sdaa-bench-copy.c) \
		$(B)/obj/lib/libswaicli.a $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o %.a,$^) $(SDAA_LINK) $(RPATH) -lm
# The allocator benchmark measures the suballocator alone, against glibc malloc.
$(B)/bin/sdaa-alloc-bench: $(call objs,obj,tools/bench/sdaa-alloc-bench.c $(SUBALLOC_SRC)) \
		$(B)/obj/lib/libswaicli.a $(LIBSDAA)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o %.a,$^) $(SDAA_LINK) $(RPATH) -lpthread -lm
# swccl-sched: schedules and topologies, on the host (tools/cluster/).
$(B)/bin/swccl-sched: $(call objs,obj,tools/cluster/swccl-sched.c) $(B)/obj/lib/libswaicluster.a \
		$(B)/obj/lib/libswaicard.a $(B)/obj/lib/libswaicli.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(CLUSTER_LIBS) -lm
# swccl-synth: schedules synthesized on the topology (tools/synth/, seed 003).
SYNTH_SRC := $(wildcard tools/synth/*.c)
$(B)/bin/swccl-synth: $(call objs,obj,$(SYNTH_SRC)) $(B)/obj/lib/libswaicluster.a \
		$(B)/obj/lib/libswaicard.a $(B)/obj/lib/libswaicli.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(CLUSTER_LIBS) $(CBC_LIBS) -lm
# swccl-sim: the same schedules at scale on SimGrid (tools/sim/).
SIM_SRC := $(wildcard tools/sim/*.c)
$(B)/bin/swccl-sim: $(call objs,obj,$(SIM_SRC)) $(B)/obj/lib/libswaicluster.a \
		$(B)/obj/lib/libswaicard.a $(B)/obj/lib/libswaicli.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(CLUSTER_LIBS) $(SIMGRID_LIBS) $(TCMALLOC_LIBS) -lm
$(B)/bin/swai-smi: $(call objs,obj,tools/smi/swai-smi.c) $(B)/obj/lib/libswaicards.a \
		$(B)/obj/lib/libswaicli.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(DRM_LIBS) -lm

# make figures: the seeds' cluster figures -- 000, 001, 002 and 003's schedules replayed by
# swccl-sim (build/figures/sim), 003's by swccl-synth (build/figures/synth): markdown tables
# beside the seeds' numbers and PNGs, made again only when a tool, its script or a topology
# changes (about 4 minutes).
figures: $(B)/figures/sim/.done $(B)/figures/synth/.done
$(B)/figures/sim/.done: $(B)/bin/swccl-sim $(B)/bin/swccl-synth tools/sim/sim-figures.sh \
		$(wildcard tools/cluster/topologies/*.json)
	tools/sim/sim-figures.sh $(B)/figures/sim
	@touch $@
$(B)/figures/synth/.done: $(B)/bin/swccl-synth tools/synth/synth-figures.sh \
		$(wildcard tools/cluster/topologies/*.json)
	tools/synth/synth-figures.sh $(B)/figures/synth
	@touch $@

# --- selftests (run inside the VM) -----------------------------------------------------
ST_SRC := $(wildcard selftests/*.c)
ST_BIN := $(patsubst selftests/%.c,$(B)/selftests/%,$(ST_SRC))
ST_SH := $(patsubst selftests/%.sh,$(B)/selftests/%,$(wildcard selftests/*.sh))
selftests: need-setup $(ST_BIN) $(ST_SH)
# Every selftest may use libsdaa, libswccl, the emitters and their host reference
# (sdaa_kernels_test, swccl_fused_test compare the card with it).
ST_LIBS := $(B)/obj/lib/libswaicards.a $(B)/obj/lib/libswk.a $(B)/obj/lib/libswkref.a \
	$(B)/obj/lib/libswaicard.a
$(B)/selftests/%: $(B)/obj/selftests/%.o $(ST_LIBS) $(LIBSDAA) $(LIBSWCCL)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(ST_LIBS) $(SWCCL_LINK) $(DRM_LIBS) -lpthread -lm
$(B)/selftests/%: selftests/%.sh
	@mkdir -p $(dir $@)
	install -m 0755 $< $@

# --- host unit tests (no VM), under ASan/UBSan ------------------------------------------
UT_BIN := $(B)/tests/swai-core-test $(B)/tests/swai-mmu-test $(B)/tests/swai-cp-test \
	$(B)/tests/swai-exec-test $(B)/tests/swai-timing-test $(B)/tests/swai-compute-test \
	$(B)/tests/swai-async-test $(B)/tests/swai-fabric-test \
	$(B)/tests/sdaa-unit-test \
	$(B)/tests/suballoc-test $(B)/tests/swccl-bench-test $(B)/tests/swccl-unit-test \
	$(B)/tests/swccl-boot-test \
	$(B)/tests/swk-unit-test $(B)/tests/swai-cli-test $(B)/tests/swai-cluster-test \
	$(B)/tests/swai-synth-test $(B)/tests/swai-nic-test
unit-tests: $(UT_BIN)
$(B)/tests/swai-cluster-test: $(B)/san/tools/cluster/tests/swai-cluster-test.o \
		$(B)/san/lib/libswaicluster.a $(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(CLUSTER_LIBS) -lm
$(B)/tests/swai-nic-test: $(B)/san/tools/card/tests/swai-nic-test.o \
		$(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lm
$(B)/tests/swai-synth-test: $(B)/san/tools/synth/tests/swai-synth-test.o \
		$(call objs,san,$(filter-out tools/synth/swccl-synth.c,$(SYNTH_SRC))) \
		$(B)/san/lib/libswaicluster.a $(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(CLUSTER_LIBS) $(CBC_LIBS) -lm
$(B)/tests/swai-cli-test: $(B)/san/tools/lib/tests/swai-cli-test.o $(B)/san/lib/libswaicli.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lm
# The kernel emitters' programs run on the card's engine (runtime/kernels/tests/swk-engine.h).
$(B)/tests/swk-unit-test: $(B)/san/runtime/kernels/tests/swk-unit-test.o $(B)/san/lib/libswk.a \
		$(B)/san/lib/libswkref.a $(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lblas -lm
# libswccl's objects without the ones that call libsdaa: the algorithms, the fused
# jobs and the cost model, whose programs run on the card's engine on host memory.
CCL_UT_SRC := $(filter-out collectives/swccl_comm.c collectives/swccl_enqueue.c \
	collectives/swccl_launch.c collectives/swccl_group.c collectives/swccl_timeout.c \
	collectives/swccl_fused.c collectives/swccl_coll.c collectives/swccl_mem.c \
	collectives/swccl_barrier.c \
	collectives/swccl_xproc.c collectives/swccl_hier.c collectives/swccl_nic.c \
	collectives/swccl_nic_run.c collectives/swccl_rdma.c collectives/swccl_rdma_run.c \
	collectives/swccl_p2p.c collectives/swccl_rdma_proto.c collectives/swccl_rdma_model.c \
	collectives/swccl_rdma_reduce.c,$(CCL_SRC))
$(B)/tests/swccl-unit-test: $(call objs,san,collectives/tests/swccl-unit-test.c $(CCL_UT_SRC)) \
		$(B)/san/lib/libswk.a $(B)/san/lib/libswkref.a $(B)/san/lib/libswaicluster.a \
		$(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lblas $(CLUSTER_LIBS) -lm
# The bootstrap on the host: ranks as threads over loopback TCP.
$(B)/tests/swccl-boot-test: $(call objs,san,collectives/tests/swccl-boot-test.c \
		collectives/swccl_bootstrap.c collectives/swccl_param.c)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lpthread
$(B)/tests/swccl-bench-test: $(B)/san/tools/bench/tests/swccl-bench-test.o \
		$(B)/san/lib/libbenchpure.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lm
$(B)/tests/suballoc-test: $(B)/san/runtime/tests/suballoc-test.o $(B)/san/lib/libsuballoc.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lpthread
# The runtime's objects are linked into the test (not the .so), so the internal
# functions are reachable and ASan/UBSan see all of it.
$(B)/tests/sdaa-unit-test: $(call objs,san,runtime/tests/sdaa-unit-test.c $(RT_SRC)) \
		$(B)/san/lib/libswk.a $(B)/san/lib/libswaicard.a $(B)/san/lib/libswaicards.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(DRM_LIBS) -lnuma -lpthread -lm
# The QEMU device without QEMU, on the engine: the device model's unit tests.
DEV_SRC := $(filter-out tools/qemu/swai-pci.c tools/qemu/swai-fabric-obj.c,\
	$(wildcard tools/qemu/swai-*.c))
# Its trace points compile against no-ops generated from the same trace-events.
$(B)/gen/swai-trace-stubs.h: tools/qemu/trace-events tools/qemu/trace-stubs.awk
	@mkdir -p $(dir $@)
	awk -f tools/qemu/trace-stubs.awk $< >$@
$(call objs,san,$(DEV_SRC) $(wildcard tools/qemu/tests/*.c)): $(B)/gen/swai-trace-stubs.h
$(B)/san/lib/libswaidev.a: $(call objs,san,$(DEV_SRC)); $(archive)
$(B)/tests/swai-%-test: $(B)/san/tools/qemu/tests/swai-%-test.o $(B)/san/lib/libswaidev.a \
		$(B)/san/lib/libswaicluster.a $(B)/san/lib/libswaicard.a
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lblas $(CLUSTER_LIBS) -lm

# Objects are kept (make would delete them as intermediates of the archives).
.SECONDARY:
# Header dependencies the compiler found.
-include $(shell find $(B)/obj $(B)/san -name '*.d' 2>/dev/null)

# --- make fuzz: the fuzzers' long soak -------------------------------------------------
# The device model through qtest (tools/qemu/tests/swai-mmio-fuzz.py), then the
# driver and card from inside a VM (selftests/swai_fuzz.c), FUZZ_SECONDS each
# (default 3600), then 100 load/unload cycles under busy processes.  FUZZ_SEED (default: the clock), FUZZ_CARDS (2),
# FUZZ_PROCS/FUZZ_THREADS (6 x 4).  The VM runner fails on any oops, BUG, WARN
# or KASAN report; the seeds are printed first, so a finding replays.
FUZZ_SECONDS ?= 3600
FUZZ_CARDS ?= 2
FUZZ_PROCS ?= 6
FUZZ_THREADS ?= 4
fuzz: all
	python3 tools/qemu/tests/swai-mmio-fuzz.py $(SWAI_QEMU) $(FUZZ_SECONDS) $(FUZZ_SEED)
	tools/vm/swai-vm --cards $(FUZZ_CARDS) --nic-hub --timeout $$(($(FUZZ_SECONDS) + 900)) -- \
		swai_fuzz -t $(FUZZ_SECONDS) -p $(FUZZ_PROCS) -T $(FUZZ_THREADS) \
		$(if $(FUZZ_SEED),-s $(FUZZ_SEED))
	tools/vm/swai-vm --cards $(FUZZ_CARDS) --timeout 3600 -- env SWAI_EXPECT_CARDS=$(FUZZ_CARDS) \
		SWAI_BUSY_CYCLES=100 swai_load_test -r module.busy_load_unload_cycles

# --- make check-debug: the VM selftests and the fuzzer on a debug kernel --------------
# tools/debug-kernel/build.sh builds (once, cached like QEMU) a 6.12 guest kernel
# with KASAN, lockdep, DEBUG_OBJECTS, kmemleak and UBSAN; swai.ko is built
# against it from a copy of its sources (build/debug/).  swai-vm --debug-kernel
# boots it; any report of the checkers fails the run, and after the command
# swai.ko is unloaded and kmemleak scanned.  Not part of make check: the
# first kernel build alone takes 15-30 minutes on two cores.
DEBUG_B := $(B)/debug
DEBUG_FUZZ_SECONDS ?= 120
debug-kernel: need-setup $(KSRC)
	@mkdir -p $(DEBUG_B)
	tools/debug-kernel/build.sh >$(DEBUG_B)/debug-kernel.mk.tmp
	@mv $(DEBUG_B)/debug-kernel.mk.tmp $(DEBUG_B)/debug-kernel.mk
	@rm -rf $(DEBUG_B)/src $(DEBUG_B)/moddir && mkdir -p $(DEBUG_B)/src/kernel \
		$(DEBUG_B)/src/uapi/drm $(DEBUG_B)/moddir
	@cp Kbuild $(DEBUG_B)/src/ && cp kernel/*.c kernel/*.h $(DEBUG_B)/src/kernel/ && \
		cp uapi/drm/*.h $(DEBUG_B)/src/uapi/drm/
	@kdir=$$(sed -n 's/^SWAI_DEBUG_KDIR := //p' $(DEBUG_B)/debug-kernel.mk) && \
		$(MAKE) -C $$kdir M=$(DEBUG_B)/src W=1 modules >$(DEBUG_B)/kbuild.log 2>&1 || \
		{ cat $(DEBUG_B)/kbuild.log; exit 1; }; \
		cp $$kdir/modules.builtin* $$kdir/modules.order $(DEBUG_B)/moddir/ && \
		touch $(DEBUG_B)/moddir/modules.dep
	cp $(DEBUG_B)/src/swai.ko $(DEBUG_B)/swai.ko
check-debug: all debug-kernel
	tools/vm/swai-vm --debug-kernel --cards 2 --mem 2048 --timeout 3600 -- \
		env SWAI_EXPECT_CARDS=2 SWAI_EXPECT_HBM_MB=256 SWAI_EXPECT_LOCAL_MB=128 \
		SWAI_EXPECT_CPES=32 SWAI_EXPECT_LDM_KB=256 swai-selftests --quick
	tools/vm/swai-vm --debug-kernel --cards 2 --mem 2048 --timeout 1800 -- \
		swai_fuzz -t $(DEBUG_FUZZ_SECONDS)

# --- the two commands -----------------------------------------------------------------
check: setup
	@$(MAKE) --no-print-directory all
	@tools/run-checks.sh

# The VM has no gnuplot: swccl-bench prints its plot scripts, swccl-plot.sh renders
# them on the host into build/swccl-bench-*.png; demo.rc keeps the VM's status.
# sdaa-bandwidth's wall fractions are against the host's memcpy, measured here,
# outside the VM, just before it boots (the best of 20 copies: the host at its best).
demo: setup
	@$(MAKE) --no-print-directory all
	@hm=$$($(B)/bin/sdaa-bandwidth --host-memcpy -n 20) && \
	{ SWAI_VM_NO_BUILD=1 tools/vm/swai-vm --cards 1 --hbm-mb 512 --timeout 2400 -- sh -c 'swai-smi && \
		echo && sdaa-bandwidth --host-gbps '"$$hm"' && echo && \
		swccl-bench allgather -b 1M -e 32M -f 2 -n 2 -w 1 -a all \
		--plot /root/swccl-bench-allgather.png && \
		echo && swccl-bench reducescatter -b 1M -e 32M -f 2 -n 2 -w 1 -a all \
		--plot /root/swccl-bench-reducescatter.png && \
		echo && swccl-bench fused-ag -n 2 -w 1 && echo && swccl-bench fused-rs -n 2 -w 1 && \
		echo && swccl-mlp && echo && swccl-mlp --estimate && echo && swccl-bench overhead'; \
		echo $$? >$(B)/demo.rc; } | \
		tools/bench/swccl-plot.sh $(B); [ "$$(cat $(B)/demo.rc)" = 0 ] && \
	echo && echo "# === eight cards joined by the fabric (tools/bench/demo-cards.sh)" && \
	tools/bench/demo-cards.sh $(B) "$$hm" && \
	echo && echo "# === nodes joined by their cards' NICs: seed 001's Tables 1-5 (tools/bench/nic-tables.sh)" && \
	tools/bench/nic-tables.sh $(B) && \
	$(B)/bin/swccl-sim -t a2-cluster -n 16,32,64,128,256 -a NIC,HOST -b 16 -e 48 --step 8 \
		--plot $(B)/swccl-sim-nic.png && \
	echo && echo "# === all-to-all across planes, seed 002 (tools/bench/alltoall-demo.sh)" && \
	tools/bench/alltoall-demo.sh $(B) && \
	echo && echo "# === schedules synthesized on the topology, seed 003 (tools/bench/synth-demo.sh)" && \
	tools/bench/synth-demo.sh $(B)

lint: need-setup
	$(SWAI_CHECKPATCH) --strict --no-tree --terse --show-types -f \
		kernel/*.c kernel/*.h uapi/drm/*.h

clean:
	rm -rf $(B)
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP) clean >/dev/null 2>&1
	-$(MAKE) -C $(SWAI_KDIR) M=$(TOP)/tools/vm/faults clean >/dev/null 2>&1
