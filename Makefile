# ssdemu top-level build.
#
#   make            module (for both Debian kernels), core library, host tools
#   make demo       install deps, build, boot a VM, run the demo
#   make test       install deps, build, run the whole test suite
#   make python     build/lib/libssdsim.so (`import ssdsim`), the Python tools in build/venv
#   make bench      overhead, fidelity and GC benchmarks (not part of make test)
#   make workload   the ProCache paper's Algorithm 2 in the VM, scaled (workload/)
#   make fuzzers    the libFuzzer harnesses (clang), tests/fuzz/
#   make fuzz       a long run of each (FUZZ_SECONDS each, default 300)
#   make install    module (running kernel, or KVER=), ssdctl, ssdsim; DESTDIR, PREFIX
#   make uninstall  removes what make install put there
#   make dkms       DKMS source tree and tarball, built for both kernels in a private tree
#   make dkms-install  dkms add/build/install into the system's DKMS (root)
#   make counters   the files made of the table of counters (docs/counters.md)
#
# Userspace objects go to build/, kernel builds to build/kmod/<kernel>/.

PYTHON := /usr/bin/python3
BUILD := build
# The one place the version is written: the module's MODULE_VERSION, ssdctl
# and ssdsim --version, dkms.conf and the DKMS tarball's name read it.
VERSION := $(shell cat VERSION)

# The portable core: every source of its folders (a new file needs no line
# here), in the order of the request path (docs/architecture.md), and the
# cache algorithms the write cache and cachesim share (cachealg/).
CORE_DIRS := device vwc dedup nvmcache cachealg ftl flash common
CORE_SRCS := $(foreach d,$(CORE_DIRS),$(sort $(wildcard $(d)/*.c)))
# The core's userspace side: the platform's and the flat-buffer data
# iterator (user/), in libssdcore.a with the core.
USER_SRCS := platform/ssd_platform_user.c platform/ssd_sha1_user.c $(sort $(wildcard user/*.c))
KMOD_SRCS := $(sort $(wildcard emulator/*.c)) platform/ssd_sha1_kernel.c
KMOD_HEADERS := $(wildcard platform/*.h include/*.h abi/*.h emulator/*.h \
	$(addsuffix /*.h,$(CORE_DIRS)))

# Includes are written with their folder ("ftl/ftl.h", "tools/trace/trace_reader.h").
# Each folder of layers.mk is compiled against its view of the tree
# (scripts/include-views.sh): a wrong-way include does not compile.  A
# folder is the first component of a path, or the first two under tools/.
# Tests are white-box and see the whole tree.
VIEWS := $(BUILD)/views
unit_of = $(if $(filter tools/%,$(1)),tools/$(word 2,$(subst /, ,$(1))),$(firstword $(subst /, ,$(1))))
VIEW = $(if $(filter tests/%,$(1)),-I. -Itests/unit,-I$(VIEWS)/$(call unit_of,$(1)))
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Werror
CFLAGS_COMMON := -std=gnu11 -g $(WARN) -DSSDEMU_VERSION='"$(VERSION)"'
CFLAGS_OPT := $(CFLAGS_COMMON) -O2
CFLAGS_ASAN := $(CFLAGS_COMMON) -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
# Every object's headers, as the compiler saw them (-MMD): a header change
# rebuilds exactly the objects that include it.
DEPFLAGS = -MMD -MP

LIB := $(BUILD)/libssdcore.a
LIB_ASAN := $(BUILD)/asan/libssdcore.a
OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRCS) $(USER_SRCS))
OBJS_ASAN := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(CORE_SRCS) $(USER_SRCS))
CORE_LIBS := -lpthread -lz -lcrypto -lm

# The tools' units (tools/*/, layers.mk): each a folder of sources.  Every
# program of the tools links tools/msg, where their messages go.
MSG_SRCS := $(sort $(wildcard tools/msg/*.c))
TRACE_SRCS := $(filter-out tools/trace/trace_dump.c,$(sort $(wildcard tools/trace/*.c)))
TRACE_LIBS := -lzstd
REPORT_SRCS := $(sort $(wildcard tools/report/*.c))
# ssdsim: the library (libssdsim.so and the program share it) and main().
SIM_LIB_SRCS := $(filter-out tools/ssdsim/ssdsim_cli.c tools/ssdsim/ssdsim_api%.c,\
	$(sort $(wildcard tools/ssdsim/*.c)))
SIM_SRCS := tools/ssdsim/ssdsim_cli.c $(SIM_LIB_SRCS) $(TRACE_SRCS) $(REPORT_SRCS) $(MSG_SRCS)

# program NAME, SOURCES, CORE LIBRARY (or empty), LINK FLAGS: $(BUILD)/bin/NAME,
# and its ASan/UBSan build $(BUILD)/asan/bin/NAME, each source compiled on its
# own against its folder's view.
define program
$(BUILD)/bin/$(1): $(patsubst %.c,$(BUILD)/obj/%.o,$(2)) $(if $(3),$(LIB))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS_OPT) $$^ $(4) -o $$@
$(BUILD)/asan/bin/$(1): $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(2)) $(if $(3),$(LIB_ASAN))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS_ASAN) $$^ $(4) -o $$@
endef

# ssdctl talks to the kernel only: static, so the VM needs no libraries.
$(eval $(call program,ssdctl,$(sort $(wildcard tools/ssdctl/*.c)) $(REPORT_SRCS) $(MSG_SRCS),,\
	-static))
$(eval $(call program,ssdsim,$(SIM_SRCS),core,$(CORE_LIBS) $(TRACE_LIBS)))
# The host cache simulator and its trace generator (tools/cachesim/README.md):
# host-side, they need none of the device; cachesim runs the core's cache
# algorithms (cachealg/, from the core library).
$(eval $(call program,cachesim,$(sort $(wildcard tools/cachesim/*.c)) $(TRACE_SRCS) \
	$(MSG_SRCS),core,-lm $(CORE_LIBS) $(TRACE_LIBS)))
$(eval $(call program,tracegen,$(sort $(wildcard tools/tracegen/*.c)),,-lm))
# What the simulators read of a trace (docs/trace-formats.md).
$(eval $(call program,trace_dump,tools/trace/trace_dump.c $(TRACE_SRCS) $(MSG_SRCS),,\
	$(TRACE_LIBS)))
# Benchmark-only programs (bench/): the request path's speed without a trace
# or data (bench/simspeed.py), a command's CPU time and peak RSS, and ns per
# 4 KiB page of the dedup layer's SHA-1 in userspace (libcrypto).
$(eval $(call program,simspeed,bench/simspeed.c tools/report/conf_file.c $(MSG_SRCS),core,\
	$(CORE_LIBS)))
$(eval $(call program,run_rusage,bench/run_rusage.c,,))
$(eval $(call program,sha1_page_ns,bench/sha1_page_ns.c,core,$(CORE_LIBS)))
# Guest-side helpers of the VM tests (they see the ABI alone), static.
$(eval $(call program,ioctl_probe,tests/vm/ioctl_probe.c,,-static))
$(eval $(call program,ioctl_fuzz,tests/vm/ioctl_fuzz.c,,-static))
# Host-side helper of the configfs fuzz test: userspace's verdict per value.
$(eval $(call program,config_oracle,tests/vm/config_oracle.c,core,$(CORE_LIBS)))
# The unit tests of the core (tests/unit/), under ASan and UBSan; those of
# the tools' own algorithms (tests/tools/), a program each.
$(eval $(call program,ssd_unit_tests,$(sort $(wildcard tests/unit/*.c)),core,$(CORE_LIBS)))
$(eval $(call program,test_sim_latency,tests/tools/test_sim_latency.c \
	tools/ssdsim/sim_latency.c $(MSG_SRCS),,))
$(eval $(call program,test_stats_fields,tests/tools/test_stats_fields.c $(REPORT_SRCS) \
	$(MSG_SRCS) tools/ssdctl/stats_group.c,,))

TOOLS := $(addprefix $(BUILD)/bin/,ssdctl ssdsim ioctl_probe ioctl_fuzz config_oracle \
	cachesim tracegen trace_dump simspeed run_rusage)
UNIT_TESTS := $(addprefix $(BUILD)/asan/bin/,ssd_unit_tests test_sim_latency \
	test_stats_fields ssdsim cachesim tracegen trace_dump)

# libssdsim.so (tools/ssdsim/ssdsim_api.h): the core and ssdsim's sources
# compiled -fPIC, ssdsim's main() left out and its C API in.
SOLIB := $(BUILD)/lib/libssdsim.so
SOLIB_SRCS := $(CORE_SRCS) $(USER_SRCS) $(filter-out tools/ssdsim/ssdsim_cli.c,$(SIM_SRCS)) \
	$(sort $(wildcard tools/ssdsim/ssdsim_api*.c))
SOLIB_OBJS := $(patsubst %.c,$(BUILD)/pic/obj/%.o,$(SOLIB_SRCS))

KVERS = $(shell cat $(BUILD)/kernel-versions 2>/dev/null)
# What the module is built from (scripts/build-module.sh), and so the DKMS
# source tree.
KMOD_FILES = $(CORE_SRCS) $(KMOD_SRCS) $(KMOD_HEADERS) emulator/Kbuild layers.mk VERSION

.PHONY: all lib tools module deps test unit demo bench bench-sha1 workload clean fuzzers fuzz \
	views python counters
# On a fresh clone the first `make` installs what the build needs (the
# packages and Debian's kernel headers; scripts/install-deps.sh, as root or
# with sudo) and records the kernels to build for.
all: $(BUILD)/kernel-versions
	$(MAKE) lib tools python module

# scripts/install-deps.sh runs on the first build and again only when it
# changes (it is idempotent, but asks apt and pip each time); the file it
# writes last, the kernels to build for, is its stamp.  The extra packages
# of demo, bench and workload have a stamp each.  `make deps` always runs it.
$(BUILD)/kernel-versions: scripts/install-deps.sh
	@echo "make: installing build dependencies (first build, or scripts/install-deps.sh changed)"
	./scripts/install-deps.sh
	@touch $@

$(BUILD)/deps-%.stamp: scripts/install-deps.sh $(BUILD)/kernel-versions
	./scripts/install-deps.sh --$*
	@touch $@

deps:
	@./scripts/install-deps.sh

lib: $(LIB) $(LIB_ASAN)
# The library is ssdsim too (a run of the binary may run it instead:
# ssdsim/runner.py), so it is built with the tools.
tools: $(TOOLS) $(SOLIB)
# The Python tools, one distribution (pyproject.toml), installed in the
# build tree: editable (they work on this tree) into a venv that sees
# Debian's packages, by Debian's pip and setuptools (no registry, no
# build isolation).  build/venv/bin/python -m bench.run runs anywhere.
VENV := $(BUILD)/venv
python: $(SOLIB) $(VENV)/.installed
$(VENV)/.installed: pyproject.toml VERSION
	rm -rf $(VENV)
	$(PYTHON) -m venv --system-site-packages --without-pip $(VENV)
	$(VENV)/bin/python -m pip install -q --no-deps --no-build-isolation \
		--disable-pip-version-check --root-user-action=ignore -e .
	@touch $@
views: $(VIEWS)/.made

$(VIEWS)/.made: layers.mk scripts/include-views.sh
	./scripts/include-views.sh . $(VIEWS)
	@touch $@

$(BUILD)/obj/%.o: %.c | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(DEPFLAGS) $(call VIEW,$*) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(DEPFLAGS) $(call VIEW,$*) -c $< -o $@

$(BUILD)/pic/obj/%.o: %.c | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(DEPFLAGS) -fPIC $(call VIEW,$*) -c $< -o $@

$(SOLIB): $(SOLIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared $^ $(CORE_LIBS) $(TRACE_LIBS) -o $@

# Made anew: a source removed from the tree leaves no member behind.
$(LIB): $(OBJS)
	rm -f $@ && $(AR) rcs $@ $^

$(LIB_ASAN): $(OBJS_ASAN)
	rm -f $@ && $(AR) rcs $@ $^

unit: $(UNIT_TESTS)

# What is made of the table of counters (SSDEMU_STATS_COUNTERS in
# include/ssdemu_ioctl.h) outside C: the core's list of its counters
# (common/ssd_stats.h), docs/counters.md and the vendor page's table of
# docs/nvme.md.  tests/style/test_counters.py fails when they drift.
counters:
	$(PYTHON) -m ssdtools.counters

# The module is built from a copy of the tree per kernel (its folders kept,
# with their include views), so both kernels' objects coexist and the source
# tree stays clean.
module: $(BUILD)/kernel-versions
	@test -n "$(KVERS)" || { echo "$(BUILD)/kernel-versions is empty: run 'make deps'" >&2; exit 1; }
	@for kver in $(KVERS); do \
		./scripts/build-module.sh "$$kver" $(KMOD_FILES) || exit 1; \
	done

test: $(BUILD)/kernel-versions
	$(MAKE) all unit
	$(PYTHON) -m pytest -q tests

# The demo plots (python3-matplotlib: install-deps.sh --demo).
demo: $(BUILD)/deps-demo.stamp
	$(MAKE) all
	$(PYTHON) -m ssdtools.demo

bench: $(BUILD)/deps-bench.stamp
	$(MAKE) all
	$(PYTHON) -m bench.run

# ns per 4 KiB page of the dedup layer's SHA-1 in userspace (libcrypto).
bench-sha1: $(BUILD)/bin/sha1_page_ns
	$<

# The ProCache paper's Algorithm 2 in the VM under the no-cache baseline,
# BASE, REFCNT, ProCache, ProCache+dedup and ProCache on a discard mount,
# then the replay sweep and the report (workload/).
# WORKLOAD_ARGS="--scale tiny" for a quick run.
workload: $(BUILD)/deps-workload.stamp
	$(MAKE) all
	$(PYTHON) -m workload.run $(WORKLOAD_ARGS)

# libFuzzer harnesses (tests/fuzz/README.md): the core and the tools'
# parsers built again by clang with coverage, ASan and UBSan.
FUZZ_CC := clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wno-unused-parameter -Wno-sign-compare -I. \
	-DSSD_WARN_ABORTS -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SRCS := $(CORE_SRCS) $(USER_SRCS) tools/report/conf_file.c $(TRACE_SRCS) $(MSG_SRCS)
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_SRCS))
FUZZERS := $(BUILD)/fuzz/fuzz_config $(BUILD)/fuzz/fuzz_trace $(BUILD)/fuzz/fuzz_model \
	$(BUILD)/fuzz/fuzz_snapshot
FUZZ_SECONDS := 300

$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -MF $@.d -fsanitize=fuzzer $< $(FUZZ_OBJS) \
		$(CORE_LIBS) $(TRACE_LIBS) -o $@

fuzzers: $(FUZZERS)

fuzz: fuzzers
	$(PYTHON) tests/fuzz/fuzzrun.py --seconds $(FUZZ_SECONDS)

include install.mk

# The headers each object was compiled with (DEPFLAGS).
-include $(wildcard $(foreach o,obj asan/obj pic/obj fuzz/obj,$(BUILD)/$(o)/*/*.d \
	$(BUILD)/$(o)/*/*/*.d) $(BUILD)/fuzz/*.d)

clean:
	rm -rf $(BUILD)/obj $(BUILD)/asan $(BUILD)/bin $(BUILD)/kmod $(BUILD)/fuzz $(VIEWS) $(LIB) \
		$(BUILD)/pic $(BUILD)/lib
