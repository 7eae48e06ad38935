"""`make bench`: emulator overhead, timing fidelity and GC under load.

The command line and the orchestration: runs the sections
(bench/sections.py, one module each, bench/section.py their interface),
prints their tables and merges their results into one file.

The first four share one boot of the bench VM (bench/benchvm.py running
bench/guest/bench.sh):

1. overhead (bench/overhead.py): ssdemu with timing=0 against brd and
   null_blk in the same VM, fio at QD1 and QD32, medians over rounds of
   the per-round IOPS ratios (target: median >= 0.80 at QD32).
2. fidelity (bench/fidelity.py): timing=1; QD1 one-page latency against
   null_blk completing by hrtimer at the analytic model's latency
   (bench/model.py; target: within 5%), and the sequential-write
   bandwidth against the model's steady state.
3. gc (bench/gc.py): 4 KiB random writes at QD32 at 90% utilisation; the
   IOPS curve and GC page moves per second, the WAF.
4. readlat (bench/readlat.py): read latency under rate-limited writes on
   the device, with read_priority=1 too when the module has that key.

The others run on their own:

5. sim (bench/sim_latency.py): read latency under writes in ssdsim's
   virtual time (no VM, deterministic).
6. cache (bench/cache_sweep.py): the SLC write cache's admission policies
   in ssdsim (no VM, deterministic); also bench/results/cache-sweep.md
   and cache-*.png.
7. cachevm (bench/cache_vm.py, its own VM): the same policies on the
   device; also bench/results/cache-vm-<kernel>.md.
8. dedup (bench/dedup_sweep.py): in-device deduplication in ssdsim's
   virtual time (no VM, deterministic); also dedup-sweep.json,
   dedup-latency.png, dedup-waf.png.
9. overlap (bench/idle_overlap.py): the write cache's background destage
   and the dedup engines in ssdsim (no VM, deterministic); also
   idle-overlap.json and idle-overlap.md.
10. hostcache (bench/hostcache.py): host-side caches in cachesim against
    PLC-Cache's and CDAC's baselines; also bench/results/hostcache.md,
    the claims report.
11. snapshot (bench/snapshot.py): ssdsim's snapshot save and load
    throughput against cp of a file of the same size, and the snapshot's
    size against its valid data; also bench/results/snapshot.md.
12. snapshotvm (bench/snapshot_vm.py, its own VM): the kernel's snapshot
    save and load against dd of the same bytes, on the same aged states;
    also snapshot-vm-<kernel>.json and its table in snapshot.md.
13. procache (bench/procache_figs.py): the ProCache paper's trace-driven
    figures (Figs 3-6, at its p = 0.5 and c = 64 KB) in ssdsim on its
    device (no VM, deterministic); also bench/results/procache-figs.md and
    procache-fig*.png (the claims: python3 -m claims.procache).
14. sweep (bench/fig4_sweep.py): the paper's Fig 4 (p x cache size) on
    the real traces through `python3 -m ssdtools.sweep` (libssdsim.so, a
    local process pool), with its wall time; also
    bench/results/procache-fig4-sweep.csv, .md and -*.png.
15. kim (bench/kim_figs.py): Kim et al.'s claims: duplication per
    workload at 4 KiB chunks and write latency with dedup off and on
    under the talk's condition (no filter, a recency store, no GC), 1, 2
    and 4 engines (no VM, deterministic); also bench/results/kim-figs.md.
16. ftltypes (bench/ftl_types.py): every ftl_type ssdsim lists on the
    sample traces and a sequential/random mix (no VM, deterministic):
    WAF, erases, merges, translation traffic, write latency, mapping RAM,
    the published results beside them; also bench/results/ftl-types.md,
    .json and ftl-types-*.png.
17. ftltypesvm (bench/ftl_types_vm.py, its own VM): fio on a device of
    each type; also ftl-types-vm-<kernel>.json and its table in
    ftl-types.md.

--only picks sections (overhead, fidelity, gc, readlat, sim, cache, cachevm,
dedup, overlap, hostcache, snapshot, snapshotvm, procache, sweep, kim,
ftltypes, ftltypesvm); the VM of bench.sh boots only for the first four.
Prints a table, writes bench/results/bench-<kernel>.json (the sections that ran
replace theirs in the file, the others are kept; "sections" says when and
from which commit each was measured) and, when matplotlib is there and
the GC section ran, bench/results/gc-curve-<kernel>.png.  <kernel> is
--kver or the first of build/kernel-versions, also for a run of the sim
section alone.

usage: python3 -m bench.run [--only SECTIONS] [...]   (from the root)
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench import benchvm, sections
from bench.section import RESULTS, Options
from bench.transcript import Transcript
from ssdtools import initramfs
from ssdtools.paths import ROOT


def print_table(r: dict[str, Any], ran: list[str]) -> None:
    print(f"\n== kernel {r['kernel']}")
    for section in sections.pick(ran):
        section.show(r)


def git_revision() -> str:
    """HEAD's short hash, "-dirty" if the tree has changes ("" without
    git)."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status",
                                "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("-dirty" if dirty else "")


def parse_sections(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    unknown = sorted(set(names) - set(sections.NAMES))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown section(s) {', '.join(unknown)}: pick from"
            f" {','.join(sections.NAMES)}" if unknown else "no section given")
    return [s for s in sections.NAMES if s in names]


def write_results(result: dict[str, Any], ran: list[str], kver: str) -> None:
    """Merge the sections that ran into bench/results/bench-<kernel>.json,
    stamped with the date and the commit."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"bench-{kver}.json"
    merged: dict[str, Any] = {}
    if out.exists():
        merged = json.loads(out.read_text())
    merged.update(result)
    stamp = {"date": datetime.datetime.now(datetime.timezone.utc)
             .isoformat(timespec="seconds"), "git": git_revision()}
    merged.setdefault("sections", {}).update({s: stamp for s in ran})
    out.write_text(json.dumps(merged, indent=2) + "\n")
    print(f"\nwrote {out.relative_to(ROOT)} ({', '.join(ran)};"
          f" other sections kept)")


def main() -> int:
    defaults = Options()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", type=parse_sections, metavar="SECTIONS",
                        help="comma list of sections to run (default all):"
                        f" {','.join(sections.NAMES)}")
    parser.add_argument("--preset", default=defaults.preset,
                        help="preset of the sequential-write fidelity test")
    parser.add_argument("--latency-preset", default=defaults.latency_preset,
                        help="preset of the QD1 latency fidelity test (its"
                        " page types should share one latency)")
    parser.add_argument("--runtime", type=int, default=defaults.runtime_s)
    parser.add_argument("--rounds", type=int, default=defaults.rounds,
                        help="rounds of the overhead test")
    parser.add_argument("--latency-rounds", type=int,
                        default=defaults.latency_rounds,
                        help="rounds of the QD1 latency fidelity test")
    parser.add_argument("--gc-runtime", type=int,
                        default=defaults.gc_runtime_s)
    parser.add_argument("--readlat-runtime", type=int,
                        default=defaults.readlat_runtime_s,
                        help="seconds of the VM's read-under-writes jobs")
    parser.add_argument("--ssdsim", type=Path, default=defaults.ssdsim,
                        help="ssdsim binary of the sim section")
    parser.add_argument("--kver", help="kernel of the VM (default: the first"
                        " of build/kernel-versions)")
    parser.add_argument("--reanalyze", type=Path, metavar="RAW",
                        help="analyze a saved bench/results/raw-*.txt again"
                        " (the VM sections it ran; sim too if --only has"
                        " it)")
    args = parser.parse_args()
    names: list[str] = args.only or list(sections.NAMES)
    if args.reanalyze and not args.only:
        names = list(sections.VM_NAMES)
    kver = args.kver or initramfs.default_kernels()[0]
    opts = Options(preset=args.preset, latency_preset=args.latency_preset,
                   runtime_s=args.runtime, rounds=args.rounds,
                   latency_rounds=args.latency_rounds,
                   gc_runtime_s=args.gc_runtime,
                   readlat_runtime_s=args.readlat_runtime,
                   ssdsim=args.ssdsim, kver=kver)
    result: dict[str, Any] = {"kernel": kver}
    ran: list[str] = []
    if args.reanalyze:
        result = benchvm.analyze(args.reanalyze)
        kver = result["kernel"]
        opts = dataclasses.replace(opts, kver=kver)
        ran = Transcript.load(args.reanalyze).sections
    elif any(name in sections.VM_NAMES for name in names):
        result = benchvm.run(names, opts)
        ran = [name for name in sections.VM_NAMES if name in names]
    for section in sections.OWN_RUN:
        if section.NAME in names:
            print(f"{section.PROGRESS.format(ssdsim=args.ssdsim)}...",
                  flush=True)
            result[section.NAME] = section.measure(opts)
            ran.append(section.NAME)
    print_table(result, ran)
    write_results(result, ran, kver)
    for vm_section in sections.IN_BENCH_VM:
        if vm_section.NAME in ran:
            for path in vm_section.figures(result):
                print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
