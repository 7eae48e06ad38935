"""The simulator's speed and RAM: requests per second of the core's
request path (FTL + timing model), of the same with the write cache, and
of the whole `ssdsim` on a trace file, each against libCacheSim's LRU over
the same requests and, where its public source is on the machine, MQSim
over the same trace, in one run.

Workload (issue 22's): configs/small-test.conf (518 MiB logical, 8 chips),
filled to FILL_PERCENT of its logical pages by sequential 4 KiB writes,
then random 4 KiB writes over the filled pages (uniform, seeded), so the
FTL overwrites and GC runs (WAF about 1.75).

- core: `build/bin/simspeed` (bench/simspeed.c): the device made in
  the process, REQUESTS random writes after the fill, a data iterator that
  copies nothing; requests/s in the thread's CPU time of the random phase
  alone; peak RSS (its VmHWM) per logical page, fill included.  Median
  of ROUNDS.
- cache: the same with an SLC write cache, ProCache admission (its default
  p = 0.1) and LRU replacement (CACHE_KEYS), and with every write admitted
  (ALWAYS_KEYS: each write past the warm-up destages one page).
- ssdsim: the fill and TRACE_REQUESTS random writes as one MQSim-format
  trace file (one request every GAP_NS), `ssdsim --json --config
  small-test.conf TRACE`: every request (fill included) over the process's
  CPU time (user + system; build/bin/run_rusage), so it counts parsing
  the trace and whatever data the run keeps; peak RSS per logical page.
- libCacheSim: the same page sequence as an oracleGeneral binary trace,
  through libCacheSim's LRU (its PyPI bindings, build/pydeps) holding the
  cache's pages (cache_capacity_pages of the cache run), in a child
  process: requests over the CPU time of process_trace() alone.  A cache
  only: no flash, no timing.
- MQSim: built from the source in bench/mqsim-src or $MQSIM_SRC (a
  checkout of github.com/CMU-SAFARI/MQSim) into build/mqsim/, its
  ssdconfig.xml set to small-test's geometry (4 channels x 2 chips, 256
  4 KiB pages a block, small-test's latencies, 10% over-provisioning, its
  data cache off, the map in RAM) but 144 blocks a chip, twice
  small-test's (with 72 MQSim stops on this trace with an internal error),
  run on the ssdsim trace file: requests over the child's CPU time (its
  preconditioning off, so the trace's fill is its fill).  Without the
  source: "MQSim: source not available, skipped".

Every simspeed and ssdsim run keeps no page data (data_store=none) where
the build has that key, else every page's bytes.

Ratios, not pass/fail: ssdsim / libCacheSim and ssdsim / MQSim per path;
the issue's targets (TARGETS) are printed beside the figures, met or not.
CPU time, not wall time: the bench machine may be shared.

Writes bench/results/simspeed.json and simspeed.md.

Standalone: python3 -m bench.simspeed [--requests N] [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from bench.section import RESULTS, Options, write_json
import ssdsim as sim
from ssdtools.paths import BUILD, CONFIGS, ROOT

NAME = "simspeed"
PROGRESS = ("simspeed: requests/s and RAM of the core, the cache and ssdsim"
            " against libCacheSim and MQSim ({ssdsim})")
SIMSPEED = BUILD / "bin" / "simspeed"
RUN_RUSAGE = BUILD / "bin" / "run_rusage"
CONFIG = CONFIGS / "small-test.conf"
WORK = BUILD / "bench-simspeed"
PYDEPS = BUILD / "pydeps"
MQSIM_BUILD = BUILD / "mqsim"
MQSIM_DEFAULT_SRC = ROOT / "bench" / "mqsim-src"
FILL_PERCENT = 80
REQUESTS = 2_000_000
TRACE_REQUESTS = 1_000_000
ROUNDS = 3
SEED = 1
GAP_NS = 200_000
PAGE_BYTES = 4096
DATA_KEY = "data_store"
CACHE_KEYS = ["slc_blocks_per_chip=8", "cache_policy=procache",
              "cache_replacement=lru"]
ALWAYS_KEYS = ["slc_blocks_per_chip=8", "cache_policy=always",
               "cache_replacement=lru"]
# Issue 22's targets, one core: requests/s, and RAM per logical page for a
# run without content.
TARGETS = {"core": 5e6, "cache": 2e6, "ram_bytes_per_logical_page": 16}
# small-test.conf's geometry in MQSim's ssdconfig.xml, but twice its
# blocks: with small-test's 72 a chip, MQSim stops on this trace ("ERROR:
# Inconsistency in the global mapping table when locking an LPA!").
MQSIM_DEVICE = {"Flash_Channel_Count": "4", "Chip_No_Per_Channel": "2",
                "Die_No_Per_Chip": "1", "Plane_No_Per_Die": "1",
                "Block_No_Per_Plane": "144", "Page_No_Per_Block": "256",
                "Page_Capacity": "4096", "Overprovisioning_Ratio": "0.1",
                "Enabled_Preconditioning": "false",
                "Ideal_Mapping_Table": "true",
                "Page_Read_Latency_LSB": "50000",
                "Page_Read_Latency_CSB": "50000",
                "Page_Read_Latency_MSB": "50000",
                "Page_Program_Latency_LSB": "600000",
                "Page_Program_Latency_CSB": "600000",
                "Page_Program_Latency_MSB": "600000",
                "Block_Erase_Latency": "3000000",
                "Flash_Technology": "TLC"}


USAGE = re.compile(r"run_rusage: cpu_s=([0-9.]+) peak_rss_kb=(\d+)\s*$")


class Child:
    """A finished child process: its output, CPU seconds (user + system)
    and peak RSS, of that process alone.  build/bin/run_rusage starts it:
    Linux charges a process with the RSS of the one that forked it (here
    the bench's Python, holding the trace) up to its exec."""

    def __init__(self, cmd: Sequence[str], cwd: Path | None = None,
                 env: dict[str, str] | None = None,
                 stdin: int | None = None) -> None:
        if not RUN_RUSAGE.exists():
            raise SystemExit(f"bench.simspeed: {RUN_RUSAGE} missing: run"
                             " 'make tools'")
        proc = subprocess.run([str(RUN_RUSAGE), *cmd], stdin=stdin,
                              capture_output=True, text=True, cwd=cwd,
                              env=env)
        self.stdout, self.stderr = proc.stdout, proc.stderr
        m = USAGE.search(proc.stderr)
        if proc.returncode or not m:
            raise SystemExit(f"bench.simspeed: {' '.join(cmd)}: exit"
                             f" {proc.returncode}\n{self.stderr[-2000:]}")
        self.cpu_s = float(m.group(1))
        self.peak_rss_kb = int(m.group(2))


def simspeed(keys: Sequence[str], requests: int, rounds: int,
             binary: Path = SIMSPEED) -> dict[str, Any]:
    """Median requests/s of `rounds` simspeed runs; the last run's
    counters (every run models the same: the digests must agree)."""
    runs = []
    for _ in range(rounds):
        c = Child([str(binary), "--json", "--conf", str(CONFIG), "--fill",
                   str(FILL_PERCENT), "--requests", str(requests),
                   "--seed", str(SEED), *keys])
        runs.append(json.loads(c.stdout))
    digests = {(r["completion_digest"], r["stats_digest"]) for r in runs}
    if len(digests) != 1:
        raise SystemExit(f"bench.simspeed: {keys}: runs differ: {digests}")
    out = dict(runs[-1])
    out["requests_per_s_runs"] = [r["requests_per_s"] for r in runs]
    out["requests_per_s"] = statistics.median(out["requests_per_s_runs"])
    out["keys"] = list(keys)
    return out


def page_sequence(fill_pages: int, requests: int, seed: int = SEED
                  ) -> list[int]:
    """The fill (pages 0 .. fill_pages - 1 in order), then `requests`
    uniform random pages of the filled range."""
    rng = random.Random(seed)
    return list(range(fill_pages)) + [rng.randrange(fill_pages)
                                      for _ in range(requests)]


def write_mqsim_trace(path: Path, pages: list[int]) -> None:
    """4 KiB writes, MQSim format (arrival_ns device lba sectors 0=write),
    one every GAP_NS."""
    sectors = PAGE_BYTES // 512
    with path.open("w") as f:
        f.writelines(f"{i * GAP_NS} 0 {p * sectors} {sectors} 0\n"
                     for i, p in enumerate(pages))


def write_oracle_trace(path: Path, pages: list[int]) -> None:
    """libCacheSim's oracleGeneral binary format: per request u32 time,
    u64 object id, u32 size, i64 next access (-1: not given)."""
    rec = struct.Struct("<IQIq")
    with path.open("wb") as f:
        f.write(b"".join(rec.pack(i // 1000, p, PAGE_BYTES, -1)
                         for i, p in enumerate(pages)))


def run_ssdsim(trace: Path, requests: int, logical_pages: int,
               binary: Path, keys: Sequence[str] = ()) -> dict[str, Any]:
    c = Child([str(binary), "--json", "--config", str(CONFIG), *keys,
               str(trace)])
    st = json.loads(c.stdout)
    if st["host_write_pages"] != requests:
        raise SystemExit(f"bench.simspeed: ssdsim wrote"
                         f" {st['host_write_pages']} pages of {requests}")
    return {"requests": requests, "cpu_s": c.cpu_s,
            "requests_per_s": requests / c.cpu_s,
            "peak_rss_kb": c.peak_rss_kb,
            "rss_bytes_per_logical_page":
                c.peak_rss_kb * 1024 / logical_pages,
            "gc_relocated_pages": st["gc_relocated_pages"],
            "flash_program_pages": st["flash_program_pages"]}


LCS_CHILD = r"""
import json, sys, time
import libcachesim as lcs
path, pages = sys.argv[1], int(sys.argv[2])
reader = lcs.TraceReader(path, trace_type=lcs.TraceType.ORACLE_GENERAL_TRACE)
cache = lcs.LRU(cache_size=pages * %d)
start = time.process_time()
miss, _ = cache.process_trace(reader)
cpu = time.process_time() - start
print(json.dumps({"cpu_s": cpu, "miss_ratio": miss,
                  "version": lcs.__version__}))
""" % PAGE_BYTES


def run_libcachesim(trace: Path, requests: int, cache_pages: int
                    ) -> dict[str, Any]:
    """LRU of cache_pages pages over the trace, or why it was skipped."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(PYDEPS), env.get("PYTHONPATH", "")) if p)
    probe = subprocess.run([sys.executable, "-c", "import libcachesim"],
                           env=env, capture_output=True, text=True)
    if probe.returncode:
        return {"skipped": "libCacheSim: not installed (run"
                           " scripts/install-deps.sh), skipped"}
    c = Child([sys.executable, "-c", LCS_CHILD, str(trace),
               str(cache_pages)], env=env)
    r = json.loads(c.stdout)
    r.update({"requests": requests, "cache_pages": cache_pages,
              "requests_per_s": requests / r["cpu_s"],
              "peak_rss_kb": c.peak_rss_kb})
    return r


def mqsim_source() -> Path | None:
    env = os.environ.get("MQSIM_SRC")
    for src in ([Path(env)] if env else []) + [MQSIM_DEFAULT_SRC]:
        if (src / "Makefile").exists() and (src / "src").is_dir():
            return src
    return None


def build_mqsim(src: Path) -> Path:
    """MQSim built from src in build/mqsim (its own Makefile)."""
    binary = MQSIM_BUILD / "MQSim"
    stamp = MQSIM_BUILD / ".source"
    if binary.exists() and stamp.exists() and \
            stamp.read_text() == str(src.resolve()):
        return binary
    shutil.rmtree(MQSIM_BUILD, ignore_errors=True)
    shutil.copytree(src, MQSIM_BUILD,
                    ignore=shutil.ignore_patterns(".git"))
    proc = subprocess.run(["make", f"-j{os.cpu_count() or 1}"],
                          cwd=MQSIM_BUILD, capture_output=True, text=True)
    if proc.returncode or not binary.exists():
        raise SystemExit(f"bench.simspeed: building MQSim from {src}"
                         f" failed:\n{proc.stderr[-2000:]}")
    stamp.write_text(str(src.resolve()))
    return binary


def set_tags(xml: str, values: dict[str, str]) -> str:
    for tag, value in values.items():
        xml, n = re.subn(rf"<{tag}>[^<]*</{tag}>", f"<{tag}>{value}</{tag}>",
                         xml)
        if not n:
            raise SystemExit(f"bench.simspeed: MQSim's ssdconfig.xml has"
                             f" no <{tag}>")
    return xml


MQSIM_WORKLOAD = """<?xml version="1.0" encoding="us-ascii"?>
<MQSim_IO_Scenarios>
  <IO_Scenario>
    <IO_Flow_Parameter_Set_Trace_Based>
      <Priority_Class>HIGH</Priority_Class>
      <Device_Level_Data_Caching_Mode>TURNED_OFF</Device_Level_Data_Caching_Mode>
      <Channel_IDs>0,1,2,3</Channel_IDs>
      <Chip_IDs>0,1</Chip_IDs>
      <Die_IDs>0</Die_IDs>
      <Plane_IDs>0</Plane_IDs>
      <Initial_Occupancy_Percentage>1</Initial_Occupancy_Percentage>
      <File_Path>{trace}</File_Path>
      <Percentage_To_Be_Executed>100</Percentage_To_Be_Executed>
      <Relay_Count>1</Relay_Count>
      <Time_Unit>NANOSECOND</Time_Unit>
    </IO_Flow_Parameter_Set_Trace_Based>
  </IO_Scenario>
</MQSim_IO_Scenarios>
"""


def run_mqsim(trace: Path, requests: int, logical_pages: int
              ) -> dict[str, Any]:
    src = mqsim_source()
    if src is None:
        return {"skipped": "MQSim: source not available, skipped"}
    binary = build_mqsim(src)
    config = WORK / "mqsim-ssdconfig.xml"
    workload = WORK / "mqsim-workload.xml"
    config.write_text(set_tags((MQSIM_BUILD / "ssdconfig.xml").read_text(),
                               MQSIM_DEVICE))
    workload.write_text(MQSIM_WORKLOAD.format(trace=trace.resolve()))
    # Names relative to its working directory: MQSim crashes on absolute
    # ones (it derives its output file's name from the workload's).
    c = Child([str(binary.resolve()), "-i", config.name, "-w",
               workload.name], cwd=WORK, stdin=subprocess.DEVNULL)
    served = re.search(r"total requests serviced:\s*(\d+)", c.stdout)
    if not served:
        raise SystemExit(f"bench.simspeed: MQSim printed no request count:"
                         f"\n{c.stdout[-2000:]}")
    return {"source": str(src), "requests": requests,
            "requests_served": int(served.group(1)), "cpu_s": c.cpu_s,
            "requests_per_s": requests / c.cpu_s,
            "peak_rss_kb": c.peak_rss_kb,
            "rss_bytes_per_logical_page":
                c.peak_rss_kb * 1024 / logical_pages}


def ratio(a: dict[str, Any], b: dict[str, Any]) -> float | None:
    if "requests_per_s" not in a or "requests_per_s" not in b:
        return None
    return a["requests_per_s"] / b["requests_per_s"]


def no_content_keys(ssdsim: Path) -> list[str]:
    """data_store=none where the build has the key (issue 22's runs
    without content keep no page data), else nothing: every page's bytes
    are kept."""
    return [f"{DATA_KEY}=none"] if DATA_KEY in sim.list_keys(ssdsim) else []


def run(requests: int = REQUESTS, trace_requests: int = TRACE_REQUESTS,
        rounds: int = ROUNDS, ssdsim: Path = sim.SSDSIM) -> dict[str, Any]:
    data = no_content_keys(ssdsim)
    core = simspeed(data, requests, rounds)
    cache = simspeed(data + CACHE_KEYS, requests, rounds)
    always = simspeed(data + ALWAYS_KEYS, requests, rounds)
    fill_pages, logical_pages = core["fill_pages"], core["logical_pages"]
    WORK.mkdir(parents=True, exist_ok=True)
    try:
        pages = page_sequence(fill_pages, trace_requests)
        mq_trace, og_trace = WORK / "rand.trace", WORK / "rand.oracleGeneral"
        write_mqsim_trace(mq_trace, pages)
        write_oracle_trace(og_trace, pages)
        full = run_ssdsim(mq_trace, len(pages), logical_pages, ssdsim,
                          data)
        lru = run_libcachesim(og_trace, len(pages),
                              cache["cache_capacity_pages"])
        mqsim = run_mqsim(mq_trace, len(pages), logical_pages)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    result: dict[str, Any] = {
        "config": CONFIG.name, "data_keys": data,
        "fill_percent": FILL_PERCENT,
        "requests": requests, "trace_requests": len(pages),
        "rounds": rounds, "targets": TARGETS,
        "core": core, "cache": cache, "cache_always": always,
        "ssdsim": full, "libcachesim_lru": lru, "mqsim": mqsim}
    result["ratios"] = {
        f"{path}_vs_{ref}": ratio(result[path], result[ref])
        for path in ("core", "cache", "cache_always", "ssdsim")
        for ref in ("libcachesim_lru", "mqsim")}
    return result


def _rate(r: dict[str, Any]) -> str:
    if "requests_per_s" not in r:
        return "-"
    return f"{r['requests_per_s'] / 1e6:.2f}M"


def _ram(r: dict[str, Any]) -> str:
    v = r.get("rss_bytes_per_logical_page")
    return "-" if v is None else f"{v:.0f}"


def _x(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}x"


def table_lines(result: dict[str, Any]) -> list[str]:
    t = result["targets"]
    core, cache = result["core"], result["cache"]
    rows = [
        ("core: FTL + timing (simspeed)", result["core"],
         f">= {t['core'] / 1e6:g}M/s: "
         + ("met" if core["requests_per_s"] >= t["core"] else "not met")),
        ("cache: ProCache p=0.1 + LRU (simspeed)", result["cache"],
         f">= {t['cache'] / 1e6:g}M/s: "
         + ("met" if cache["requests_per_s"] >= t["cache"] else "not met")),
        ("cache: every write admitted + LRU (simspeed)",
         result["cache_always"], ""),
        ("ssdsim on the trace file", result["ssdsim"],
         f"RAM <= {t['ram_bytes_per_logical_page']} B/page: "
         + ("met" if result["ssdsim"]["rss_bytes_per_logical_page"]
            <= t["ram_bytes_per_logical_page"] else "not met")),
    ]
    lines = [f"Device: {result['config']} filled to"
             f" {result['fill_percent']}%, then uniform random 4 KiB writes"
             f" over the filled pages; simspeed: {result['requests']}"
             f" random writes, median of {result['rounds']} runs; the trace:"
             f" {result['trace_requests']} writes (fill included); data"
             f" kept: {' '.join(result.get('data_keys', [])) or 'bytes'}."
             "  Requests"
             " per second of CPU time, one core; RAM = peak RSS / logical"
             " page.", "",
             "| path | requests/s | RAM B/page | GC pages moved"
             " | / libCacheSim LRU | / MQSim | issue 22 target |",
             "|---|---|---|---|---|---|---|"]
    ratios = result["ratios"]
    keys = {"core: FTL": "core", "cache: ProCache": "cache",
            "cache: every": "cache_always", "ssdsim on": "ssdsim"}
    for label, r, target in rows:
        key = next(v for k, v in keys.items() if label.startswith(k))
        lines.append(
            f"| {label} | {_rate(r)} | {_ram(r)}"
            f" | {r.get('gc_relocated_pages', '-')}"
            f" | {_x(ratios[f'{key}_vs_libcachesim_lru'])}"
            f" | {_x(ratios[f'{key}_vs_mqsim'])} | {target} |")
    for ref, label in (("libcachesim_lru", "libCacheSim LRU"),
                       ("mqsim", "MQSim")):
        r = result[ref]
        if "skipped" in r:
            lines.append(f"| {label} | {r['skipped']} | | | | | |")
        else:
            extra = (f"{r['cache_pages']} pages, miss ratio"
                     f" {r['miss_ratio']:.3f}" if ref == "libcachesim_lru"
                     else "small-test's chips, twice its blocks")
            lines.append(f"| {label} ({extra}) | {_rate(r)} | {_ram(r)}"
                         " | | | | |")
    return lines


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    write_json(out_dir / "simspeed.json", result)
    (out_dir / "simspeed.md").write_text(
        "# Simulator speed and RAM against libCacheSim and MQSim"
        " (bench/simspeed.py)\n\n" + "\n".join(table_lines(result)) + "\n")


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(ssdsim=opts.ssdsim.resolve())
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print("\n".join(["", "Simulator speed (requests/s, RAM) against"
                     " libCacheSim and MQSim"] + table_lines(results[NAME])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--trace-requests", type=int,
                        default=TRACE_REQUESTS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--ssdsim", type=Path, default=sim.SSDSIM)
    args = parser.parse_args()
    result = run(args.requests, args.trace_requests, args.rounds,
                 args.ssdsim.resolve())
    print("\n".join(table_lines(result)))
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
