"""Snapshots in the kernel (in the VM): save and load throughput against
`dd` of the same bytes, and the snapshot's size against its valid data.

For each state of bench/snapshot.py (the same configs/small-test.conf,
age specs and seed as its ssdsim table), the host ages a device with
`ssdsim --age` and saves it; one VM boot (ssdtools.vmrun, the first kernel
unless --kver) runs bench/guest/snapshot_vm.sh, which makes a device from
each file (timing=0: the device moves bytes as fast as it can) and,
ROUNDS times, interleaved, on the guest's tmpfs (/tmp):

- save: `ssdctl snapshot save` of the device to /tmp;
- dd read: `dd iflag=direct bs=1M` of the snapshot's size (rounded up to
  a MiB) from the device to /tmp;
- load: `ssdctl create --from` the saved file (file read, device made and
  filled, the loader's consistency checks);
- dd write: `dd oflag=direct bs=1M` of those bytes to a fresh device of
  the same configuration (its creation timed apart, not in dd's time).

Times are the guest's (/proc/uptime, 1/100 s); a throughput is the
median over the rounds of each round's bytes over its time (the reads
between saves change the device's read counters and timing state, so a
later save can be a few bytes longer), and the ratios (save / dd read,
load / dd write) are of medians measured in the same boot (> 1: faster
than dd).  Valid data: the device's valid_pages x
page_size_bytes after the load.  Writes bench/results/snapshot-vm-
<kernel>.json and the kernel's table in bench/results/snapshot.md (beside
the ssdsim table).

Standalone: python3 -m bench.snapshot_vm [--kver KVER] [--rounds N]
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from bench import own_vm, snapshot
from bench.section import RESULTS, Options
from ssdtools import guest, vmrun
import ssdsim as sim
from ssdtools.paths import GUEST_LIB, ROOT

NAME = "snapshotvm"
PROGRESS = "VM: snapshot save and load against dd"
SCRIPT = ROOT / "bench" / "guest" / "snapshot_vm.sh"
WORK = ROOT / "build" / "bench-snapshot-vm"
RAW = ROOT / "build" / "bench-snapshot-vm.txt"
ROUNDS = 3
# Guest RAM: per state, the host's file, the device, the saved file, dd's
# copy and a second device live at once (about 5 x 490 MB at fill=0.9).
MEMORY_MB = 4096
# One vCPU: the commands are single-threaded; the host is shared.
CPUS = 1
WHATS = ("save", "ddread", "load", "create", "ddwrite")
TIME = re.compile(r"^TIME (\S+) (\d+) (\w+) ([0-9.]+)$", re.M)
BYTES = re.compile(r"^BYTES (\S+) (\d+) (\d+) (\d+)$", re.M)


def tags(states: list[str]) -> list[str]:
    return [f"s{i}" for i in range(len(states))]


def age(ssdsim: Path, spec: str, out: Path) -> int:
    """Age a device in ssdsim to spec and save it to out; its size."""
    proc = sim.call(["--config", str(snapshot.CONFIG), "--age", spec,
                     "--seed", str(snapshot.SEED), "--data", "--save",
                     str(out)],
                    ssdsim)
    if proc.returncode:
        raise SystemExit(f"bench.snapshot_vm: ssdsim --age {spec}: exit "
                         f"{proc.returncode}\n{proc.stderr}")
    return out.stat().st_size


def parse(output: str, states: list[str], rounds: int
          ) -> list[dict[str, Any]]:
    """Each state's figures from the guest's output (TIME, BYTES and STATS
    blocks of bench/guest/snapshot_vm.sh); every round of every command
    must be there."""
    times: dict[tuple[str, str], dict[int, float]] = {}
    for tag, rnd, what, secs in TIME.findall(output):
        times.setdefault((tag, what), {})[int(rnd)] = float(secs)
    sizes: dict[str, dict[int, tuple[int, int]]] = {}
    for tag, rnd, snap, dd in BYTES.findall(output):
        sizes.setdefault(tag, {})[int(rnd)] = (int(snap), int(dd))
    stats = guest.stats_blocks(output)
    want = list(range(1, rounds + 1))
    result = []
    for tag, spec in zip(tags(states), states):
        for what in WHATS:
            if sorted(times.get((tag, what), {})) != want:
                raise ValueError(f"{tag}: {what}: rounds "
                                 f"{sorted(times.get((tag, what), {}))},"
                                 f" want {want}")
        if sorted(sizes.get(tag, {})) != want or tag not in stats:
            raise ValueError(f"{tag}: BYTES or STATS missing")
        # The reads between saves change the device's read counters and
        # timing state, so a later save may differ by a few bytes.
        snaps = [sizes[tag][r][0] for r in want]
        dds = [sizes[tag][r][1] for r in want]
        size = int(statistics.median(snaps))
        st = stats[tag]
        valid = st["valid_pages"] * st["page_size_bytes"]
        row: dict[str, Any] = {"spec": spec, "seed": snapshot.SEED,
                               "snapshot_bytes": size,
                               "snapshot_bytes_by_round": snaps,
                               "dd_bytes_by_round": dds,
                               "valid_data_bytes": valid,
                               "size_per_valid_byte": size / valid}
        moved = {"save": snaps, "load": snaps, "ddread": dds,
                 "ddwrite": dds}
        for what in WHATS:
            row[f"{what}_s"] = [times[(tag, what)][r] for r in want]
        for what, nbytes in moved.items():
            row[f"{what}_mb_per_s"] = statistics.median(
                n / t / 1e6 for n, t in zip(nbytes, row[f"{what}_s"]))
        row["save_vs_dd"] = row["save_mb_per_s"] / row["ddread_mb_per_s"]
        row["load_vs_dd"] = row["load_mb_per_s"] / row["ddwrite_mb_per_s"]
        result.append(row)
    return result


def run(kver: str, ssdsim: Path = sim.SSDSIM, rounds: int = ROUNDS,
        states: list[str] | None = None) -> dict[str, Any]:
    states = states or snapshot.STATES
    WORK.mkdir(parents=True, exist_ok=True)
    try:
        files: dict[str, str | bytes | Path] = {"/lib.sh": str(GUEST_LIB)}
        aged_bytes = {}
        for tag, spec in zip(tags(states), states):
            path = WORK / f"aged-{tag}.snap"
            aged_bytes[tag] = age(ssdsim, spec, path)
            files[f"/aged-{tag}.snap"] = str(path)
        script = (f"STATES={shlex.quote(' '.join(tags(states)))}\n"
                  f"ROUNDS={rounds}\n" + SCRIPT.read_text())
        res = vmrun.run_in_vm(script, kver=kver, files=files,
                              timeout_s=3600, memory_mb=MEMORY_MB,
                              cpus=CPUS)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    if not res.ok or "snapshot_vm ok" not in res.output:
        raise RuntimeError(f"snapshot VM bench failed: {res.summary()}\n"
                           f"{res.output[-2000:]}")
    RAW.write_text(res.output)  # to look at if the parse fails
    rows = parse(res.output, states, rounds)
    for tag, row in zip(tags(states), rows):
        row["ssdsim_snapshot_bytes"] = aged_bytes[tag]
    return {"kernel": res.kver, "config": snapshot.CONFIG.name,
            "rounds": rounds, "cpus": CPUS, "memory_mb": MEMORY_MB,
            "vm_wall_s": round(res.wall_s, 1), "states": rows}


def heading(result: dict[str, Any]) -> str:
    return (f"Kernel {result['kernel']} (in the VM): save and load against"
            " dd of the same bytes")


def table_lines(result: dict[str, Any]) -> list[str]:
    lines = [f"Device: {result['config']} (timing=0), made from `ssdsim"
             f" --age SPEC --seed {snapshot.SEED}`; qemu TCG, "
             f"{result['cpus']} vCPU; files on the guest's tmpfs; medians"
             f" of {result['rounds']} rounds in one boot"
             f" ({result['vm_wall_s']:.0f} s of host wall time); dd with"
             " bs=1M and O_DIRECT on the device; throughput: median of"
             " the rounds' bytes / seconds (ratios > 1: faster than dd).",
             "",
             "| age spec | valid data MB | snapshot MB | size / valid"
             " | save MB/s | dd read MB/s | save / dd | load MB/s"
             " | dd write MB/s | load / dd | save s | load s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in result["states"]:
        lines.append(
            f"| {s['spec']} | {s['valid_data_bytes'] / 1e6:.1f}"
            f" | {s['snapshot_bytes'] / 1e6:.1f}"
            f" | {s['size_per_valid_byte']:.4f}"
            f" | {s['save_mb_per_s']:.0f} | {s['ddread_mb_per_s']:.0f}"
            f" | {s['save_vs_dd']:.2f}"
            f" | {s['load_mb_per_s']:.0f} | {s['ddwrite_mb_per_s']:.0f}"
            f" | {s['load_vs_dd']:.2f}"
            f" | {statistics.median(s['save_s']):.2f}"
            f" | {statistics.median(s['load_s']):.2f} |")
    return lines


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    own_vm.save(result, "snapshot-vm", snapshot.write_part,
                heading(result), table_lines(result), out_dir)


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    return own_vm.measure(opts, run, write_results)


def show(results: dict[str, Any]) -> None:
    own_vm.show("Snapshots in the kernel (save, load, dd; VM)",
                table_lines(results[NAME]))


def _rounds_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=int, default=ROUNDS)


if __name__ == "__main__":
    sys.exit(own_vm.main(
        __doc__, lambda kver, ssdsim, args: run(kver, ssdsim, args.rounds),
        table_lines, write_results, _rounds_argument))
