"""Snapshots in the kernel module (configfs snapshot_save/snapshot_from,
ssdctl snapshot save / create --from), on every target kernel.

test_snapshot_round_trip_and_bad_input (guest/snapshot.sh): a device
aged, saved, destroyed and made again reads back every byte it held at
the save; its statistics are the saved ones plus exactly the requests its
request log shows since the load (the partition scan at power-on), and its
clock goes on from the saved one; saving it again gives the same sections
except those the reads touch; saves while fio writes at queue depth 16
load and hold what was written before; bad files, paths and overrides are
refused with a kernel message and leave no disk.

test_snapshot_repeat_is_deterministic (guest/snapshot_repeat.sh): the
same workload on five devices made from one snapshot (timing=1) gives the
same counters every time.

test_snapshot_continues_in_ssdsim (guest/snapshot_sim.sh): a snapshot
aged by ssdsim made into a device in the kernel, and one saved by the
kernel, each continued in ssdsim --from with the kernel's request log of
what came after: the counters and every completion time of the kernel.
"""
from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

import ssdsim
from ssdtools.guest import blocks, stats_blocks
from ssdtools.paths import CONFIGS

HERE = Path(__file__).resolve().parent
FILES = {"/lib.sh": str(HERE / "guest" / "lib.sh")}
# The glue's own counters (how late the kernel's completions were against
# the model): not the model's state, not saved.
LATENESS = {"late_completions", "late_ns_total", "late_ns_max",
            "timed_completions"}
# What reads change: counts of reads and commands, the time they took.
READ_SIDE = {"host_read_bytes", "host_read_pages", "flash_read_pages",
             "flash_read_host_pages", "virtual_time_ns", "commands",
             "command_latency_ns_total", "controller_busy_ns",
             "channel_busy_ns_total", "chip_busy_ns_total", "read_commands",
             "read_latency_ns_total", "read_latency_mean_us"}
# With timing=1 the requests arrive at wall-clock times: how long a request
# waits behind flash work of earlier ones (an erase, a GC move) depends on
# the host's gaps between requests, and so does how long a chip that has
# read a page stays busy until its channel takes the data: the latency
# sums, the chips' busy time and the clock vary from run to run (as in
# test_ssdemu's blkparse replay).  Counts, the controller's and the
# channels' busy time (fixed per command and per transfer) do not.
WALL_CLOCK = {"virtual_time_ns", "command_latency_ns_total",
              "queue_wait_ns_total", "read_latency_ns_total",
              "write_latency_ns_total", "read_latency_mean_us",
              "write_latency_mean_us", "chip_busy_ns_total"}


def guest(name: str) -> str:
    return (HERE / "guest" / name).read_text()


def request_log(output: str) -> list[tuple[int, str, int, int, int]]:
    """The LOG lines: (arrival_ns, op, offset, length, completion_ns)."""
    rows = re.findall(r"^LOG (\d+) (\w) (\d+) (\d+) (\d+)$", output, re.M)
    return [(int(a), op, int(o), int(n), int(c)) for a, op, o, n, c in rows]


def sections(output: str, label: str) -> list[tuple[str, int, str]]:
    """SECTION lines of one file: (tag, payload bytes, md5)."""
    rows = re.findall(rf"^SECTION {label} (\S+) \d+ (\d+) (\w+)$", output,
                      re.M)
    return [(tag, int(n), md5) for tag, n, md5 in rows]


def check_loaded_equals_saved(saved: dict[str, Any], loaded: dict[str, Any],
                              log: list[tuple[int, str, int, int, int]]
                              ) -> None:
    """The loaded device is the saved one plus the logged requests."""
    assert log, "the power-on read nothing: the partition scan is gone?"
    assert all(op == "R" for _, op, _, _, _ in log), log
    for key, value in saved.items():
        if key not in READ_SIDE | LATENESS:
            assert loaded[key] == value, key
    assert loaded["commands"] == saved["commands"] + len(log)
    assert loaded["read_commands"] == saved["read_commands"] + len(log)
    read_bytes = sum(n for _, _, _, n, _ in log)
    assert loaded["host_read_bytes"] == saved["host_read_bytes"] + read_bytes
    latency = sum(c - a for a, _, _, _, c in log)
    assert (loaded["command_latency_ns_total"]
            == saved["command_latency_ns_total"] + latency)
    assert (loaded["read_latency_ns_total"]
            == saved["read_latency_ns_total"] + latency)
    assert loaded["virtual_time_ns"] == max(c for *_, c in log)
    # The clock went on from the saved one: the first request after the
    # load arrived after every saved completion (a clock restarted at 0
    # would have its arrivals clamped to the saved last arrival).
    assert log[0][0] > saved["virtual_time_ns"]


def test_snapshot_round_trip_and_bad_input(vm: Any, kver: str) -> None:
    res = vm.run(guest("snapshot.sh"), kver, files=FILES, timeout_s=1200)
    out = res.output
    assert "snapshot ok" in out
    stats = stats_blocks(out)
    saved, loaded = stats["saved"], stats["loaded"]
    # Saving changes nothing.
    assert stats["after-save"] == saved
    assert saved["gc_relocated_pages"] > 0 and saved["flash_erase_blocks"] > 0
    check_loaded_equals_saved(saved, loaded, request_log(out))
    # Saved again after the load: the same file but for what reads touch
    # (the front end's counters and clock, the flash's read counters and
    # timing state).
    s1, s2 = sections(out, "s1"), sections(out, "s2")
    assert [t for t, _, _ in s1] == [t for t, _, _ in s2] == \
        ["HEAD", "CONF", "DEVC", "FLSH", "DATA", "FTL_", "END_"]
    for (tag, n1, m1), (_, n2, m2) in zip(s1, s2):
        if tag not in ("DEVC", "FLSH"):
            assert (n1, m1) == (n2, m2), tag
    data_bytes = dict((t, n) for t, n, _ in s1)["DATA"]
    assert data_bytes == 8 + saved["data_bytes"] // 4096 * (4 + 4096)
    size = int(re.search(r"^SNAPSHOT bytes=(\d+)$", out, re.M).group(1))
    print(f"{kver}: snapshot of {saved['data_bytes'] >> 20} MiB of data: "
          f"{size / 2**20:.1f} MiB; the load read {len(request_log(out))} "
          "pages (partition scan)")
    # Saves while fio wrote: between the counts before and after, in order.
    under = re.findall(r"^UNDERIO snap=(\d) before=(\d+) snap_writes=(\d+) "
                       r"after=(\d+)$", out, re.M)
    assert len(under) == 2
    writes = [int(w) for _, _, w, _ in under]
    for _, before, w, after in under:
        assert int(before) < int(w) < int(after)
    assert writes[0] < writes[1]
    # Refusals: each with an errno and a kernel line saying why.
    found = re.findall(r"^REFUSED (\S+) errno=([^|]*?) ?\| (.*)$", out, re.M)
    refused = {label: errno for label, errno, _ in found}
    lines = {label: line for label, _, line in found}
    expected = {"missing": "No such file or directory",
                "save-missing-dir": "No such file or directory",
                "save-no-space": "No space left on device",
                "save-not-powered": "No such device or address"}
    assert len(refused) >= 40
    for label, errno in refused.items():
        if label.startswith("ssdctl-"):
            assert lines[label].startswith("ssdctl: "), label
            continue
        assert errno == expected.get(label, "Invalid argument"), label
        assert re.search(r"refused|cannot open|failed after", lines[label]), \
            (label, lines[label])
    for label in ("page-size", "chips", "geometry", "stack", "memory-limit"):
        assert "written to the item, the file has" in lines[label], label
    for tag in ("DEVC+40", "FLSH+100", "DATA+30000", "END_+12"):
        assert "checksum mismatch" in lines[f"flipped-{tag}"], tag
    assert "the device holds at most" in lines["memory-limit"]
    assert "bytes after its end" in lines["trailing-bytes"]
    assert "is on" in lines["save-on-itself"]
    mem = re.search(r"^MEM loads=20 before_kib=(\d+) after_kib=(\d+)$", out,
                    re.M)
    assert int(mem.group(1)) - int(mem.group(2)) < 16 * 1024
    print(f"{kver}: {len(refused)} bad snapshots, paths and overrides "
          "refused, no disk left")
    assert re.search(r"^CACHE saved and loaded, data equal$", out, re.M), out
    vm.record_timing(kver, "snapshot test", res.wall_s)


def test_snapshot_repeat_is_deterministic(vm: Any, kver: str) -> None:
    res = vm.run(guest("snapshot_repeat.sh"), kver, files=FILES,
                 timeout_s=900)
    assert "repeat ok" in res.output
    stats = stats_blocks(res.output)
    aged = stats["aged"]
    for phase, ignore in (("restored", {"virtual_time_ns"} | LATENESS),
                          ("run", WALL_CLOCK | LATENESS)):
        first = stats[f"{phase}1"]
        for i in range(2, 6):
            other = stats[f"{phase}{i}"]
            diff = {k: (v, other[k]) for k, v in first.items()
                    if k not in ignore and other[k] != v}
            assert not diff, f"{phase}{i}: {diff}"
    run, restored = stats["run1"], stats["restored1"]
    # The workload did GC, trims and erases on the aged device.
    assert restored["gc_relocated_pages"] == aged["gc_relocated_pages"] > 0
    assert run["gc_relocated_pages"] > restored["gc_relocated_pages"]
    assert run["flash_erase_blocks"] > restored["flash_erase_blocks"]
    assert run["host_trim_bytes"] > 0
    spread = {k: max(stats[f"run{i}"][k] for i in range(1, 6))
              - min(stats[f"run{i}"][k] for i in range(1, 6))
              for k in ("read_latency_ns_total", "write_latency_ns_total",
                        "chip_busy_ns_total")}
    print(f"{kver}: 5 runs from one snapshot: every count identical "
          f"({run['commands'] - restored['commands']} requests, "
          f"{run['gc_relocated_pages'] - restored['gc_relocated_pages']} GC "
          "moves); latency sums vary with the host's timing by "
          f"{spread['read_latency_ns_total'] / 1e3:.0f} us (reads), "
          f"{spread['write_latency_ns_total'] / 1e3:.0f} us (writes), chip "
          f"busy time by {spread['chip_busy_ns_total']} ns")
    vm.record_timing(kver, "snapshot repeat test", res.wall_s)


# A device small enough to pass through the VM's serial line: 4 chips of
# 16 blocks of 16 pages (4 MiB of flash, 3 MiB logical).
TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=25"]


def replay_from(snapshot: Path, log: str, tmp_path: Path, tag: str
                ) -> tuple[dict[str, Any], str]:
    """ssdsim --from @snapshot replaying the kernel's request log @log: its
    statistics and its completions (the `ssdctl log` format)."""
    log_file = tmp_path / f"kernel-{tag}.log"
    log_file.write_text(log)
    completions = tmp_path / f"sim-{tag}.log"
    proc = ssdsim.call(["--from", str(snapshot), "timing=1",
                        "request_log_entries=65536", "--format", "ssdemu",
                        "--no-final-flush", "--json", "--check",
                        "--completions", str(completions), str(log_file)],
                       timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), completions.read_text()


def test_snapshot_continues_in_ssdsim(vm: Any, kver: str,
                                      tmp_path: Path) -> None:
    aged = tmp_path / "aged.snap"
    proc = ssdsim.call(["--config", str(CONFIGS / "small-test.conf"), *TINY,
                        "--age", "fill=0.9,overwrite=2", "--seed", "7",
                        "--data", "--save", str(aged)], timeout=300)
    assert proc.returncode == 0, proc.stderr
    res = vm.run(guest("snapshot_sim.sh"), kver,
                 files={**FILES, "/aged.snap": str(aged)}, timeout_s=900)
    out = res.output
    assert "snapshot_sim ok" in out
    stats, logs = stats_blocks(out), blocks(out, "LOG")
    saved = tmp_path / "b.snap"
    saved.write_bytes(gzip.decompress(base64.b64decode(
        blocks(out, "SNAP")["b"])))
    for tag, snapshot in (("a", aged), ("b", saved)):
        kernel, log = stats[tag], logs[tag] + "\n"
        assert kernel["gc_relocated_pages"] > 0
        assert kernel["host_trim_pages"] > 0
        sim, completions = replay_from(snapshot, log, tmp_path, tag)
        differ = {k: (v, sim[k]) for k, v in kernel.items()
                  if k not in LATENESS and sim[k] != v}
        assert not differ, f"{tag}: kernel vs ssdsim --from: {differ}"
        assert completions == log, tag
    print(f"{kver}: ssdsim-aged snapshot continued in the kernel, and a "
          f"kernel-saved one in ssdsim: {stats['a']['commands']} and "
          f"{stats['b']['commands'] - stats['a']['commands']} requests, the "
          "same counters and completion times in both")
    vm.record_timing(kver, "snapshot ssdsim test", res.wall_s)
