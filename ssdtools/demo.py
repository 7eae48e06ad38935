"""`make demo`: the project's two mechanisms side by side in one VM.

Two devices at once from the ProCache paper's preset
(configs/procache-tlc.conf at the workload's `tiny` size,
ssdtools/procache_device.py):
`base`, the paper's BASE (the SLC cache admits every write), and
`procache`, ProCache (p = 0.1, c = 8 KiB) with in-device dedup.  Dedup is
on the ProCache device because that is the device the project proposes
(ProCache's cache in front of Kim et al.'s dedup); BASE stays the paper's
reference as the paper ran it.  The same small workload runs on each
(tests/vm/guest/demo.sh): copy a source tree (this repository and the
host's kernel headers, ~13 MiB), compile four of the core's C files from
that copy, copy the tree again (the duplicates dedup finds), 4 KiB random
rewrites of an 8 MiB file, compile again, remove the first copy.  Then a
side-by-side table and a PNG plot (build/demo/demo.png).

usage: python3 -m ssdtools.demo [--kver KVER]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ssdtools import vmrun
from ssdtools.guest import stats_blocks
from ssdtools.paths import BUILD, GUEST_LIB, ROOT
from ssdtools.procache_device import PRESET, device_keys

SCRIPT = ROOT / "tests" / "vm" / "guest" / "demo.sh"
OUT = BUILD / "demo"
# Device name (also a shell variable name in the guest) -> its keys.
DEVICES: dict[str, list[str]] = {
    "base": device_keys("tiny", "base"),
    "procache": device_keys("tiny", "procache-dedup"),
}
# The C files the compile steps build, from the copy on the device: four
# of the core's (gcc under TCG takes ~10 s a file; all 62 took 400 s).
COMPILE = ("ftl/ftl.c", "flash/flash.c", "cachealg/admit_procache.c",
           "dedup/dedup_layer.c")
MIB = 1024 * 1024


def guest_conf() -> bytes:
    """/etc/demo.conf of tests/vm/guest/demo.sh."""
    devices = " ".join(f"{name}:{','.join(keys)}"
                       for name, keys in DEVICES.items())
    return (f"CONFIG=/configs/{PRESET}\nDEVICES=\"{devices}\"\n"
            f"SRC={ROOT}\nCOMPILE=\"{' '.join(COMPILE)}\"\n"
            ).encode()


def vm_args() -> dict[str, Any]:
    """The script and run_in_vm's arguments for the demo's VM run."""
    return {"script": SCRIPT.read_text(),
            "files": {"/lib.sh": str(GUEST_LIB),
                      "/etc/demo.conf": guest_conf()},
            "shares": dict(vmrun.HOST_ROOT_SHARE),
            "timeout_s": 3600}


def show_progress(line: str) -> None:
    """Print the guest's progress lines as they arrive."""
    if line.startswith("demo: "):
        print(f"  {line[len('demo: '):]}", flush=True)
    elif line.startswith("DEMO-STEP "):
        _, name, step, wall = line.split()
        print(f"    {step} on {name}: {float(wall):.1f} s", flush=True)


@dataclass(frozen=True)
class Row:
    """A row of the table: its label and a function of one device's stats
    (None: not applicable, shown as @none: dedup's counters on a device
    without it, a ratio of nothing)."""
    label: str
    value: Callable[[dict[str, Any]], float | None]
    fmt: str = "{:,.0f}"
    none: str = "n/a"


def _ratio(num: float, den: float) -> float | None:
    return 100.0 * num / den if den else None


def cache_page_writes(st: dict[str, Any]) -> int:
    """Page writes the cache decided on: hits, admissions, bypasses."""
    return (st["cache_write_hit_pages"] + st["cache_admit_pages"]
            + st["cache_bypass_size_pages"] + st["cache_bypass_dice_pages"]
            + st["cache_bypass_policy_pages"] + st["cache_bypass_delay_pages"]
            + st["cache_bypass_inout_pages"])


def _dedup(key: str) -> Callable[[dict[str, Any]], float | None]:
    return lambda st: (st[key] if st["dedup_store_capacity_entries"]
                       else None)


ROWS: list[Row] = [
    Row("host written (MiB)", lambda st: st["host_write_bytes"] / MIB,
        "{:,.1f}"),
    Row("SLC programs (pages)", lambda st: st["flash_program_slc_pages"]),
    Row("TLC programs (pages)", lambda st: st["flash_program_tlc_pages"]),
    Row("SLC erases (blocks)", lambda st: st["flash_erase_slc_blocks"]),
    Row("TLC erases (blocks)", lambda st: st["flash_erase_tlc_blocks"]),
    Row("cache: admitted (pages)", lambda st: st["cache_admit_pages"]),
    Row("cache: bypassed to TLC (pages)",
        lambda st: cache_page_writes(st) - st["cache_admit_pages"]
        - st["cache_write_hit_pages"]),
    Row("cache: destaged to TLC (pages)", lambda st: st["cache_evict_pages"]),
    Row("cache write hit ratio (%)",
        lambda st: _ratio(st["cache_write_hit_pages"], cache_page_writes(st)),
        "{:.1f}"),
    Row("cache read hit ratio (%)",
        lambda st: _ratio(st["cache_read_hit_pages"],
                          st["cache_read_hit_pages"]
                          + st["cache_read_miss_pages"]), "{:.1f}"),
    Row("dedup: duplicates found (chunks)", _dedup("dedup_duplicate_chunks"),
        none="off"),
    Row("dedup: programs avoided (pages)", _dedup("dedup_programs_avoided"),
        none="off"),
    Row("GC: pages relocated", lambda st: st["gc_relocated_pages"]),
    Row("WAF", lambda st: st["waf"], "{:.3f}"),
    Row("modeled write time (ms)",
        lambda st: st["write_latency_ns_total"] / 1e6, "{:,.1f}"),
    Row("mean write latency (us)",
        lambda st: st["write_latency_mean_us"], "{:,.1f}"),
]


def table(stats: dict[str, dict[str, Any]]) -> str:
    """The side-by-side table (markdown) of the devices' statistics."""
    names = list(stats)
    heads = [f"{n} ({'ProCache + dedup' if n == 'procache' else 'BASE'})"
             for n in names]
    lines = ["| | " + " | ".join(heads) + " |",
             "|---|" + "---:|" * len(names)]
    for row in ROWS:
        cells = []
        for n in names:
            v = row.value(stats[n])
            cells.append(row.none if v is None else row.fmt.format(v))
        lines.append(f"| {row.label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(stats: dict[str, dict[str, Any]], path: Path) -> None:
    """Programs and erases by region, and modeled write time, per device."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(stats)
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    for ax, (title, keys) in zip(axes[:2], [
            ("flash programs (pages)",
             ["flash_program_slc_pages", "flash_program_tlc_pages"]),
            ("erases (blocks)",
             ["flash_erase_slc_blocks", "flash_erase_tlc_blocks"])]):
        width = 0.35
        for i, key in enumerate(keys):
            region = "SLC" if "slc" in key else "TLC"
            ax.bar([x + i * width for x in range(len(names))],
                   [stats[n][key] for n in names], width, label=region)
        ax.set_xticks([x + width / 2 for x in range(len(names))], names)
        ax.set_title(title)
        ax.legend()
    axes[2].bar(names, [stats[n]["write_latency_ns_total"] / 1e6
                        for n in names], color="tab:green")
    axes[2].set_title("modeled write time (ms)")
    fig.suptitle("ssdemu demo: BASE vs ProCache + dedup, same workload")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse(output: str) -> dict[str, dict[str, Any]]:
    """The devices' statistics from the guest's output, in DEVICES order."""
    blocks = stats_blocks(output)
    missing = [n for n in DEVICES if n not in blocks]
    if missing or "DEMO-DONE" not in output:
        raise ValueError(f"the demo did not finish (no stats of {missing})")
    return {n: blocks[n] for n in DEVICES}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kver", help="guest kernel (build/kernel-versions)")
    args = ap.parse_args()
    print("booting a qemu VM (TCG, no KVM here) with two devices from "
          f"configs/{PRESET}:")
    for name, keys in DEVICES.items():
        print(f"  {name}: {' '.join(keys)}")
    kw = vm_args()
    result = vmrun.run_in_vm(kw.pop("script"), kver=args.kver,
                             on_line=show_progress, **kw)
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / "demo.log"
    log.write_text(result.output)
    if not result.ok:
        print(result.summary(), file=sys.stderr)
        return 1
    stats = parse(result.output)
    print()
    print(table(stats))
    png = OUT / "demo.png"
    plot(stats, png)
    print(f"\nplot: {png}\nthe guest's output (with each device's "
          f"`ssdctl stats`): {log}")
    print(f"(kernel {result.kver}, VM boot {result.boot_s:.1f} s, "
          f"whole run {result.wall_s:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
