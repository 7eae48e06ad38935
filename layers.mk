# layers.mk - the folder contracts the build enforces: which folders each
# folder may include, and which headers of a folder the others may.
#
# A file includes headers by their folder ("ftl/ftl.h").  Each folder is
# compiled against a view of the tree (scripts/include-views.sh) holding
# its own folder whole and, of every folder it may include, only the public
# headers: any other include fails to compile.  The module build
# (emulator/Kbuild) and the userspace build (Makefile) use the same views;
# tests/style/test_layering.py holds this table as the spec and checks
# every include of the tree against it.
#
# The request path points down: device -> vwc -> dedup -> nvmcache -> ftl
# -> flash, each arrow one interface (common/ssd_layer.h); a layer never sees
# the one above it, nor another layer's workings.  The front end also owns
# the physical device, the flash: of it, it sees the device services alone
# (LAYER_SERVICES below), never the physical operations, which are the
# FTL's.

LAYER_FOLDERS := platform include common flash ftl cachealg nvmcache dedup vwc device abi \
	emulator user tools/msg tools/trace tools/report tools/ssdsim tools/ssdctl \
	tools/cachesim tools/tracegen bench

# LAYER_DEPS_x: the folders x may include, besides itself.
LAYER_DEPS_platform :=
LAYER_DEPS_include :=
LAYER_DEPS_common := platform
LAYER_DEPS_flash := common platform
LAYER_DEPS_ftl := flash common platform
# The cache algorithms, written once for the write cache and cachesim.
LAYER_DEPS_cachealg := common platform
LAYER_DEPS_nvmcache := cachealg common platform
LAYER_DEPS_dedup := common platform
LAYER_DEPS_vwc := common platform
LAYER_DEPS_device := vwc dedup nvmcache ftl flash common platform
LAYER_DEPS_abi := device include common platform
LAYER_DEPS_emulator := abi device include common platform
# The userspace glue of the core (what emulator/ is in the kernel): the
# flat-buffer data iterator ssdsim, the unit tests and the fuzzers use.
LAYER_DEPS_user := device common platform
# The tools, one folder a unit (docs/architecture.md, section 7).  Their
# messages (errors, warnings) go through tools/msg: to stderr, or to the
# caller of libssdsim.so.  The trace readers and the reports (stats,
# request log, .conf) see no core; cachesim and tracegen are host-side:
# tracegen sees none of it, cachesim only the cache algorithms (cachealg/,
# with the platform header theirs includes), the same the write cache runs.
LAYER_DEPS_tools/msg :=
LAYER_DEPS_tools/trace := tools/msg include
LAYER_DEPS_tools/report := tools/msg include
LAYER_DEPS_tools/ssdsim := tools/msg tools/trace tools/report user abi device include common \
	platform
LAYER_DEPS_tools/ssdctl := tools/report include
LAYER_DEPS_tools/cachesim := tools/trace cachealg include platform
LAYER_DEPS_tools/tracegen :=
# Benchmark-only programs (simspeed, run_rusage, sha1_page_ns).
LAYER_DEPS_bench := tools/report user device common platform

# LAYER_PUBLIC_x: the headers of x the other folders may include.
LAYER_PUBLIC_platform := ssd_platform.h
LAYER_PUBLIC_include := ssdemu_ioctl.h
LAYER_PUBLIC_common := ssd_config.h ssd_layer.h ssd_pagepool.h ssd_rand.h ssd_slot_list.h ssd_snap.h \
	ssd_stats.h
LAYER_PUBLIC_flash := flash.h
LAYER_PUBLIC_ftl := ftl.h
LAYER_PUBLIC_cachealg := cachealg.h
LAYER_PUBLIC_nvmcache := nvmcache.h
LAYER_PUBLIC_dedup := dedup.h
LAYER_PUBLIC_vwc := vwc.h
LAYER_PUBLIC_device := ssd_device.h
LAYER_PUBLIC_abi := ssd_abi.h
LAYER_PUBLIC_emulator :=
LAYER_PUBLIC_user := flat_iter.h
LAYER_PUBLIC_tools/msg := msg.h
LAYER_PUBLIC_tools/trace := trace_reader.h trace_disks.h trace_input.h hex_digit.h
LAYER_PUBLIC_tools/report := stats_print.h stats_fields.h stats_derived.h stats_faults.h \
	log_format.h conf_file.h
LAYER_PUBLIC_tools/ssdsim := ssdsim_api.h
LAYER_PUBLIC_tools/ssdctl :=
LAYER_PUBLIC_tools/cachesim :=
LAYER_PUBLIC_tools/tracegen :=
LAYER_PUBLIC_bench :=

# LAYER_SERVICES_x: the device services of x, the headers of x that the
# front end (LAYER_FRONT_END) sees in place of x's public ones: what is
# not per page (building and freeing, the clock, end of life, counters,
# snapshots).  Every other folder that may include x sees them beside
# x's public headers, which may include them.
LAYER_FRONT_END := device
LAYER_SERVICES_flash := flash_services.h
