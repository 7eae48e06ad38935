"""One workload on the device (in the VM) under the ProCache paper's three
policies, like its Figs 10-11: elapsed time, TLC and SLC programs, erases.

Boots one VM (ssdtools.vmrun) running bench/guest/cache_vm.sh: on
configs/small-test.conf with 8 SLC blocks per chip and timing=1, a hot
Zipf-skewed 4 KiB random writer (64 MiB) beside a 1 MiB sequential writer
(64 MiB) in one fio run, under cache_policy = always, refcnt and procache
(p = 0.1, c = 64 KiB).  Elapsed time is fio's (the longer job's runtime),
which follows the modeled completion times.  Writes
bench/results/cache-vm-<kernel>.json and cache-vm-<kernel>.md.

Standalone: python3 -m bench.cache_vm [--kver KVER]
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bench.section import RESULTS, Options, write_json
from ssdtools import guest, initramfs, vmrun
from ssdtools.paths import GUEST_LIB, ROOT

NAME = "cachevm"
PROGRESS = "VM: write cache policies on the device"
POLICIES = ("always", "refcnt", "procache")
KEEP = ("host_write_pages", "cache_write_hit_pages", "cache_admit_pages",
        "cache_bypass_size_pages", "cache_bypass_dice_pages",
        "cache_bypass_policy_pages", "cache_evict_pages",
        "flash_program_tlc_pages", "flash_program_slc_pages",
        "flash_erase_tlc_blocks", "flash_erase_slc_blocks",
        "cache_policy_metadata_bytes", "write_latency_mean_us")


def run(kver: str) -> dict[str, Any]:
    script = (ROOT / "bench" / "guest" / "cache_vm.sh").read_text()
    files = {"/lib.sh": str(GUEST_LIB)}
    res = vmrun.run_in_vm(script, kver=kver, files=files, timeout_s=2400)
    if not res.ok or "cache_vm ok" not in res.output:
        raise RuntimeError(f"cache VM bench failed: {res.summary()}\n"
                           f"{res.output[-2000:]}")
    result: dict[str, Any] = {"kernel": kver, "policies": {}}
    fios = guest.blocks(res.output, "FIO")
    stats = guest.stats_blocks(res.output)
    for policy in POLICIES:
        fio = json.loads(fios[policy])
        st = stats[policy]
        row = {k: st[k] for k in KEEP}
        row["elapsed_ms"] = max(job["write"]["runtime"]
                                for job in fio["jobs"])
        row["hot_write_iops"] = fio["jobs"][0]["write"]["iops"]
        result["policies"][policy] = row
    return result


def table_lines(result: dict[str, Any]) -> list[str]:
    base = result["policies"]["always"]
    lines = [f"Kernel {result['kernel']}: small-test.conf,"
             " slc_blocks_per_chip=8, timing=1; hot 4 KiB Zipf(1.1)"
             " randwrite + 1 MiB sequential write, 64 MiB each.", "",
             "| policy | elapsed ms | hot IOPS | write hit pages"
             " | TLC programs | vs BASE | SLC programs | TLC erases"
             " | SLC erases | erases vs BASE |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    base_erases = (base["flash_erase_tlc_blocks"]
                   + base["flash_erase_slc_blocks"])
    for policy, r in result["policies"].items():
        erases = r["flash_erase_tlc_blocks"] + r["flash_erase_slc_blocks"]
        tlc = r["flash_program_tlc_pages"]
        lines.append(
            f"| {policy} | {r['elapsed_ms']} | {r['hot_write_iops']:.0f}"
            f" | {r['cache_write_hit_pages']} | {tlc}"
            f" | {100 * (tlc - base['flash_program_tlc_pages']) / max(base['flash_program_tlc_pages'], 1):+.1f}%"  # noqa: E501
            f" | {r['flash_program_slc_pages']}"
            f" | {r['flash_erase_tlc_blocks']} | {r['flash_erase_slc_blocks']}"
            f" | {100 * (erases - base_erases) / max(base_erases, 1):+.1f}% |")
    return lines


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    result = run(opts.kver)
    write_results(result)
    return result


def show(results: dict[str, Any]) -> None:
    print_table(results[NAME])


def print_table(result: dict[str, Any]) -> None:
    print("\n".join(["", "SLC write cache policies on the device (VM)"]
                    + table_lines(result)))


def write_results(result: dict[str, Any]) -> None:
    kver = result["kernel"]
    write_json(RESULTS / f"cache-vm-{kver}.json", result)
    (RESULTS / f"cache-vm-{kver}.md").write_text(
        "# SLC write cache policies on the device (bench/cache_vm.py)\n\n"
        + "\n".join(table_lines(result)) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kver", help="kernel of the VM (default: the"
                        " first of build/kernel-versions)")
    args = parser.parse_args()
    result = run(args.kver or initramfs.default_kernels()[0])
    print_table(result)
    write_results(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
