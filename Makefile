# ssdemu top-level build.
#
#   make            module (for both Debian kernels), core library, host tools
#   make demo       install deps, build, boot a VM, run the demo
#   make test       install deps, build, run the whole test suite
#   make python     build/lib/libssdsim.so, the core under `import ssdsim` (ssdsim/)
#   make bench      overhead, fidelity and GC benchmarks (not part of make test)
#   make workload   the ProCache paper's Algorithm 2 in the VM, scaled (workload/)
#   make fuzzers    the libFuzzer harnesses (clang), tests/fuzz/
#   make fuzz       a long run of each (FUZZ_SECONDS each, default 300)
#   make install    module (running kernel, or KVER=), ssdctl, ssdsim; DESTDIR, PREFIX
#   make uninstall  removes what make install put there
#   make dkms       DKMS source tree and tarball, built for both kernels in a private tree
#   make dkms-install  dkms add/build/install into the system's DKMS (root)
#
# Userspace objects go to build/, kernel builds to build/kmod/<kernel>/.

PYTHON := /usr/bin/python3
BUILD := build
# The one place the version is written: the module's MODULE_VERSION, ssdctl
# and ssdsim --version, dkms.conf and the DKMS tarball's name read it.
VERSION := $(shell cat VERSION)

# The portable core: every source of its folders (a new file needs no line
# here), in the order of the request path (docs/architecture.md).
CORE_DIRS := device dedup nvmcache ftl flash common
CORE_SRCS := $(foreach d,$(CORE_DIRS),$(sort $(wildcard $(d)/*.c)))
USER_SRCS := platform/ssd_platform_user.c platform/ssd_sha1_user.c
KMOD_SRCS := $(sort $(wildcard emulator/*.c)) platform/ssd_sha1_kernel.c
HEADERS := $(wildcard platform/*.h include/*.h abi/*.h emulator/*.h host-tools/*.h \
	$(addsuffix /*.h,$(CORE_DIRS)))

# Includes are written with their folder ("ftl/ftl.h").  Each folder of the
# core and the tools is compiled against its view of the tree (layers.mk,
# scripts/include-views.sh): a wrong-way include does not compile.  Tests
# are white-box and see the whole tree.
VIEWS := $(BUILD)/views
VIEW = -I$(VIEWS)/$(firstword $(subst /, ,$(1)))
WARN := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Werror
CFLAGS_COMMON := -std=gnu11 -g $(WARN) -DSSDEMU_VERSION='"$(VERSION)"'
CFLAGS_OPT := $(CFLAGS_COMMON) -O2
CFLAGS_ASAN := $(CFLAGS_COMMON) -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined

LIB := $(BUILD)/libssdcore.a
LIB_ASAN := $(BUILD)/asan/libssdcore.a
OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRCS) $(USER_SRCS))
OBJS_ASAN := $(patsubst %.c,$(BUILD)/asan/obj/%.o,$(CORE_SRCS) $(USER_SRCS))

TOOLS := $(BUILD)/bin/ssdctl $(BUILD)/bin/ssdsim $(BUILD)/bin/ioctl_probe \
	$(BUILD)/bin/ioctl_fuzz \
	$(BUILD)/bin/config_oracle $(BUILD)/bin/cachesim $(BUILD)/bin/tracegen \
	$(BUILD)/bin/trace_dump $(BUILD)/bin/simspeed $(BUILD)/bin/run_rusage
UNIT_TESTS := $(BUILD)/asan/bin/ssd_unit_tests $(BUILD)/asan/bin/ssdsim \
	$(BUILD)/asan/bin/cachesim $(BUILD)/asan/bin/tracegen $(BUILD)/asan/bin/trace_dump
STATS_SRCS := host-tools/stats_print.c host-tools/conf_file.c host-tools/log_format.c
# The trace readers (docs/trace-formats.md), shared by every tool that reads
# traces; zstd-compressed traces need libzstd.
TRACE_SRCS := $(sort $(wildcard host-tools/trace_*.c))
TRACE_SRCS := $(filter-out host-tools/trace_dump.c,$(TRACE_SRCS))
TRACE_LIBS := -lzstd
SIM_SRCS := host-tools/ssdsim_cli.c host-tools/ssdsim.c $(TRACE_SRCS) \
	host-tools/flat_iter.c host-tools/sim_options.c host-tools/sim_place.c \
	host-tools/sim_remap.c host-tools/sim_data.c host-tools/sim_report.c host-tools/sim_latency.c \
	host-tools/sim_snapshot.c host-tools/sim_age.c host-tools/sim_replay.c host-tools/sim_store.c \
	host-tools/sim_results.c host-tools/sim_keys.c host-tools/sim_fields.c \
	host-tools/sim_summary.c host-tools/sim_progress.c host-tools/sim_trend.c \
	host-tools/belady.c $(STATS_SRCS)
UNIT_SRCS := $(wildcard tests/unit/*.c)
# libssdsim.so (host-tools/ssdsim_api.h): the core and ssdsim's sources
# compiled -fPIC, with their printing made capturable
# (host-tools/ssdsim_api_io.h), ssdsim's main() left out.
SOLIB := $(BUILD)/lib/libssdsim.so
SOLIB_SRCS := $(CORE_SRCS) $(USER_SRCS) $(filter-out host-tools/ssdsim_cli.c,$(SIM_SRCS)) \
	host-tools/ssdsim_api.c host-tools/ssdsim_api_io.c
SOLIB_OBJS := $(patsubst %.c,$(BUILD)/pic/obj/%.o,$(SOLIB_SRCS))
# The host cache simulator and its trace generator (host-tools/CACHESIM.md):
# host-side, they need none of the core.
CACHESIM_SRCS := host-tools/cachesim.c $(sort $(wildcard host-tools/csim_*.c)) \
	$(TRACE_SRCS)
TRACEGEN_SRCS := $(sort $(wildcard host-tools/tracegen*.c))

KVERS = $(shell cat $(BUILD)/kernel-versions 2>/dev/null)
# What the module is built from (scripts/build-module.sh), and so the DKMS
# source tree.
KMOD_FILES = $(CORE_SRCS) $(KMOD_SRCS) $(HEADERS) emulator/Kbuild layers.mk VERSION

.PHONY: all lib tools module deps test unit demo bench bench-sha1 workload clean fuzzers fuzz \
	views python
# On a fresh clone the first `make` installs what the build needs (the
# packages and Debian's kernel headers; scripts/install-deps.sh, as root or
# with sudo) and records the kernels to build for.
all: $(BUILD)/kernel-versions
	$(MAKE) lib tools python module

$(BUILD)/kernel-versions:
	@echo "make: first build on this machine: installing build dependencies"
	./scripts/install-deps.sh

deps:
	@./scripts/install-deps.sh

lib: $(LIB) $(LIB_ASAN)
# The library is ssdsim too (tools that run the binary may run it instead:
# ssdtools/ssdsim.py), so it is built with the tools.
tools: $(TOOLS) $(SOLIB)
python: $(SOLIB)
views: $(VIEWS)/.made

$(VIEWS)/.made: layers.mk scripts/include-views.sh
	./scripts/include-views.sh . $(VIEWS)
	@touch $@

$(BUILD)/obj/%.o: %.c $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,$*) -c $< -o $@

$(BUILD)/asan/obj/%.o: %.c $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(call VIEW,$*) -c $< -o $@

$(BUILD)/pic/obj/%.o: %.c $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) -fPIC -include host-tools/ssdsim_api_io.h $(call VIEW,$*) -c $< -o $@

$(SOLIB): $(SOLIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared $^ -lpthread -lz -lcrypto -lm $(TRACE_LIBS) -o $@

# Made anew: a source removed from the tree leaves no member behind.
$(LIB): $(OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_ASAN): $(OBJS_ASAN)
	rm -f $@
	$(AR) rcs $@ $^

# ssdctl talks to the kernel only: static, so the VM needs no libraries.
CTL_SRCS := host-tools/ssdctl.c host-tools/ssdctl_help.c host-tools/stats_group.c \
	host-tools/stats_watch.c $(STATS_SRCS)
$(BUILD)/bin/ssdctl: $(CTL_SRCS) $(HEADERS) VERSION | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) -static $(CTL_SRCS) -o $@

# Guest-side helpers of the VM tests (they see the ABI alone).
$(BUILD)/bin/ioctl_probe: tests/vm/ioctl_probe.c include/ssdemu_ioctl.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) -I. -static $< -o $@

$(BUILD)/bin/ioctl_fuzz: tests/vm/ioctl_fuzz.c include/ssdemu_ioctl.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) -I. -static $< -o $@

# Host-side helper of the configfs fuzz test: userspace's verdict per value.
$(BUILD)/bin/config_oracle: tests/vm/config_oracle.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) -I. $< $(LIB) -lpthread -lz -lcrypto -o $@

$(BUILD)/bin/ssdsim: $(SIM_SRCS) $(LIB) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) $(SIM_SRCS) $(LIB) -lpthread -lz -lcrypto -lm $(TRACE_LIBS) -o $@

# The request path's speed without a trace or data (bench/simspeed.py).
SIMSPEED_SRCS := host-tools/simspeed.c host-tools/conf_file.c

$(BUILD)/bin/simspeed: $(SIMSPEED_SRCS) $(LIB) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) $(SIMSPEED_SRCS) $(LIB) -lpthread -lz -lcrypto -o $@

# A command's CPU time and peak RSS of its own (bench/simspeed.py).
$(BUILD)/bin/run_rusage: host-tools/run_rusage.c | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) $< -o $@

$(BUILD)/asan/bin/ssdsim: $(SIM_SRCS) $(LIB_ASAN) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(call VIEW,host-tools) $(SIM_SRCS) $(LIB_ASAN) -lpthread -lz -lcrypto -lm $(TRACE_LIBS) -o $@

$(BUILD)/bin/cachesim: $(CACHESIM_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) $(CACHESIM_SRCS) -lm $(TRACE_LIBS) -o $@

$(BUILD)/asan/bin/cachesim: $(CACHESIM_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(call VIEW,host-tools) $(CACHESIM_SRCS) -lm $(TRACE_LIBS) -o $@

$(BUILD)/bin/trace_dump: host-tools/trace_dump.c $(TRACE_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) host-tools/trace_dump.c $(TRACE_SRCS) \
		$(TRACE_LIBS) -o $@

$(BUILD)/asan/bin/trace_dump: host-tools/trace_dump.c $(TRACE_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(call VIEW,host-tools) host-tools/trace_dump.c $(TRACE_SRCS) \
		$(TRACE_LIBS) -o $@

$(BUILD)/bin/tracegen: $(TRACEGEN_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) $(call VIEW,host-tools) $(TRACEGEN_SRCS) -lm -o $@

$(BUILD)/asan/bin/tracegen: $(TRACEGEN_SRCS) $(HEADERS) | $(VIEWS)/.made
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) $(call VIEW,host-tools) $(TRACEGEN_SRCS) -lm -o $@

$(BUILD)/asan/bin/ssd_unit_tests: $(UNIT_SRCS) host-tools/flat_iter.c host-tools/sim_latency.c $(LIB_ASAN) \
		tests/unit/*.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ASAN) -I. -Itests/unit $(UNIT_SRCS) host-tools/flat_iter.c host-tools/sim_latency.c \
		$(LIB_ASAN) -lpthread -lz -lcrypto -lm -o $@

unit: $(UNIT_TESTS)

# The module is built from a copy of the tree per kernel (its folders kept,
# with their include views), so both kernels' objects coexist and the source
# tree stays clean.
module: $(BUILD)/kernel-versions
	@test -n "$(KVERS)" || { echo "$(BUILD)/kernel-versions is empty: run 'make deps'" >&2; exit 1; }
	@for kver in $(KVERS); do \
		./scripts/build-module.sh "$$kver" $(KMOD_FILES) || exit 1; \
	done

test: deps
	$(MAKE) all unit
	$(PYTHON) -m pytest -q tests

# The demo plots (python3-matplotlib: install-deps.sh --demo).
demo:
	@./scripts/install-deps.sh --demo
	$(MAKE) all
	$(PYTHON) -m ssdtools.demo

bench:
	@./scripts/install-deps.sh --bench
	$(MAKE) all
	$(PYTHON) -m bench.run

# ns per 4 KiB page of the dedup layer's SHA-1 in userspace (libcrypto).
bench-sha1: $(BUILD)/bin/sha1_page_ns
	$<

$(BUILD)/bin/sha1_page_ns: bench/sha1_page_ns.c $(LIB) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_OPT) -I. $< $(LIB) -lpthread -lz -lcrypto -o $@

# The ProCache paper's Algorithm 2 in the VM under the no-cache baseline,
# BASE, REFCNT, ProCache, ProCache+dedup and ProCache on a discard mount,
# then the replay sweep and the report (workload/).
# WORKLOAD_ARGS="--scale tiny" for a quick run.
workload:
	@./scripts/install-deps.sh --workload
	$(MAKE) all
	$(PYTHON) -m workload.run $(WORKLOAD_ARGS)

# libFuzzer harnesses (tests/fuzz/README.md): the core and the host-tools
# parsers built again by clang with coverage, ASan and UBSan.
FUZZ_CC := clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wno-unused-parameter -Wno-sign-compare -I. \
	-DSSD_WARN_ABORTS -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_SRCS := $(CORE_SRCS) $(USER_SRCS) host-tools/conf_file.c $(TRACE_SRCS) \
	host-tools/flat_iter.c
FUZZ_OBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_SRCS))
FUZZERS := $(BUILD)/fuzz/fuzz_config $(BUILD)/fuzz/fuzz_trace $(BUILD)/fuzz/fuzz_model \
	$(BUILD)/fuzz/fuzz_snapshot
FUZZ_SECONDS := 300

$(BUILD)/fuzz/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJS) -lpthread -lz -lcrypto $(TRACE_LIBS) -o $@

fuzzers: $(FUZZERS)

fuzz: fuzzers
	$(PYTHON) tests/fuzz/fuzzrun.py --seconds $(FUZZ_SECONDS)

include install.mk

clean:
	rm -rf $(BUILD)/obj $(BUILD)/asan $(BUILD)/bin $(BUILD)/kmod $(BUILD)/fuzz $(VIEWS) $(LIB) \
		$(BUILD)/pic $(BUILD)/lib
