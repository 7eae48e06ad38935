"""The kernel module in a VM, on every target kernel (build/kernel-versions).

Each test boots once and runs one guest script from tests/vm/guest/, which
fails fast with "FAIL: ..." on any broken expectation; here the script's
exit status, its printed statistics and the kernel log are checked.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import ssdsim
from ssdtools.guest import stats_blocks
from ssdtools.paths import CONFIGS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUEST = HERE / "guest"
FILES = {
    "/lib.sh": str(GUEST / "lib.sh"),
    "/usr/bin/ioctl_probe": str(ROOT / "build" / "bin" / "ioctl_probe"),
}


def guest(name: str) -> str:
    return (GUEST / name).read_text()


def test_filesystems_survive_fsck_and_remount(vm: Any, kver: str) -> None:
    res = vm.run(guest("filesystems.sh"), kver, files=FILES, timeout_s=900)
    assert "filesystems ok" in res.output
    stats = stats_blocks(res.output)
    assert set(stats) == {"ext4", "xfs"}
    for st in stats.values():
        assert st["host_write_bytes"] > 0
        # fstrim reached the FTL as discards that unmapped pages.
        assert st["host_trim_pages"] > 0
        assert st["flash_program_pages"] >= st["host_write_pages"]
    vm.record_timing(kver, "filesystems test", res.wall_s)


def test_fio_verify_under_gc(vm: Any, kver: str) -> None:
    res = vm.run(guest("fio_gc.sh"), kver, files=FILES, timeout_s=1800)
    assert "fio_gc ok" in res.output
    stats = stats_blocks(res.output)
    fill, rand, par = stats["fill"], stats["rand"], stats["par"]
    # Sequential fill of an empty device: nothing for GC to do.
    assert fill["flash_program_gc_pages"] == 0
    assert fill["waf"] == 1.0
    # Random overwrites at 95% utilisation: GC relocates valid data.
    assert rand["flash_erase_blocks"] > 0
    assert rand["gc_relocated_pages"] > 0
    assert rand["waf"] > 1.0
    assert rand["flash_program_pages"] == (rand["flash_program_host_pages"]
                                           + rand["flash_program_gc_pages"])
    # Four jobs at once kept counting (and fio verified their data).
    assert par["host_write_bytes"] > rand["host_write_bytes"]
    print(f"{kver}: randwrite at 95%: WAF {rand['waf']:.3f}, "
          f"erases {rand['flash_erase_blocks']}, "
          f"GC moved {rand['gc_relocated_pages']} pages; "
          f"with 4 jobs: WAF {par['waf']:.3f}")
    vm.record_timing(kver, "fio GC test", res.wall_s)


def test_configfs_lifecycle_and_bad_input(vm: Any, kver: str) -> None:
    res = vm.run(guest("configfs.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "configfs ok" in out
    for refused in ("chips=0", "page_size_bytes=3000", "op_percent=100",
                    "gc_policy=lru", "power=1", "chips=16", "power=0"):
        assert f"refused {refused}:" in out
    # The kernel's lines name the device (the configfs item), the core's
    # (configuration, geometry, a layer's keys) as well as the glue's.
    for message in ("x: chips=0 refused", "x: power refused",
                    "x: channels=3 refused", "x: cache_pages=1000000 refused",
                    "a: chips cannot change while powered"):
        assert f": ssdemu: {message}" in out
    assert "fd_stats=No such device or address" in out
    vm.record_timing(kver, "configfs test", res.wall_s)


def test_timing_and_kernel_matches_simulator(vm: Any, kver: str,
                                             tmp_path: Path) -> None:
    res = vm.run(guest("timing.sh"), kver, files=FILES, timeout_s=900)
    out = res.output
    assert "timing ok" in out
    latency = dict(re.findall(r"qd1_write_us (timing=\d) ([0-9.]+)", out))
    stats = stats_blocks(out)
    qd1 = stats["qd1"]
    # The device is never faster than the hardware it emulates: program
    # (the script's, 10 ms) plus controller plus one page transfer
    # (configs/small-test.conf).
    program_ns = int(re.search(r"^QD1-PROGRAM-NS (\d+)$", out, re.M).group(1))
    model_write_us = (program_ns + 2000 + 10240) / 1000
    assert float(latency["timing=1"]) >= model_write_us
    assert float(latency["timing=0"]) < model_write_us
    assert qd1["timed_completions"] == qd1["commands"] > 0
    print(f"{kver}: QD1 write {latency['timing=1']} us (model "
          f"{model_write_us} us; timing=0: {latency['timing=0']} us); "
          f"mean lateness {qd1['late_ns_total'] / qd1['commands'] / 1000:.1f}"
          f" us, max {qd1['late_ns_max'] / 1000:.1f} us")

    # Replay the kernel's request log through ssdsim: same counters, same
    # modeled completion times, request by request.
    kernel = stats["cmp"]
    assert kernel["gc_relocated_pages"] > 0, "the workload did not make GC run"
    assert kernel["host_trim_pages"] > 0
    log = re.search(r"LOG-BEGIN\n(.*?)LOG-END", out, re.S).group(1)
    assert log.count("\n") == kernel["commands"]
    config = re.search(r"CMP-CONFIG (.*)", out).group(1).split()
    kernel_log = tmp_path / "kernel.log"
    kernel_log.write_text(log)
    sim_log = tmp_path / "sim.log"
    proc = ssdsim.call(ssdsim.command_line(
        kernel_log, config=CONFIGS / "small-test.conf", keys=config,
        format="ssdemu", completions=sim_log,
        flags=["--no-final-flush", "--data"]), timeout=300)
    assert proc.returncode == 0, proc.stderr
    sim = json.loads(proc.stdout)
    kernel_only = {"timed_completions", "late_completions", "late_ns_total",
                   "late_ns_max"}
    differ = {k: (kernel[k], sim[k]) for k in kernel
              if k not in kernel_only and kernel[k] != sim[k]}
    assert not differ, f"kernel vs ssdsim: {differ}"
    assert sim_log.read_text() == log

    # The blktrace of the same kind of workload, as blkparse printed it:
    # the same requests in the same order, and the same flash counters.
    kernel = stats["bt"]
    assert kernel["gc_relocated_pages"] > 0, "the bt workload ran no GC"
    bt_log = re.search(r"BTLOG-BEGIN\n(.*?)BTLOG-END", out, re.S).group(1)
    (tmp_path / "bt-kernel.log").write_text(bt_log)
    blkparse = tmp_path / "bt.txt"
    blkparse.write_text(re.search(r"BLKPARSE-BEGIN\n(.*?)BLKPARSE-END", out,
                                  re.S).group(1))
    config = re.search(r"BT-CONFIG (.*)", out).group(1).split()
    proc = ssdsim.call(ssdsim.command_line(
        blkparse, config=CONFIGS / "small-test.conf", keys=config,
        format="blkparse", completions=sim_log,
        flags=["--no-final-flush", "--data"]), timeout=300)
    assert proc.returncode == 0, proc.stderr
    sim = json.loads(proc.stdout)

    def requests(text: str) -> list[list[str]]:
        return [line.split()[1:4] for line in text.splitlines()]

    assert requests(sim_log.read_text()) == requests(bt_log)
    # Counts do not depend on when requests arrived; times do (a chip that
    # has read a page stays busy until its channel takes the data).
    arrival_bound = kernel_only | {
        "virtual_time_ns", "command_latency_ns_total", "queue_wait_ns_total",
        "chip_busy_ns_total", "read_latency_ns_total",
        "write_latency_ns_total", "read_latency_mean_us",
        "write_latency_mean_us"}
    differ = {k: (kernel[k], sim[k]) for k in kernel
              if k not in arrival_bound and kernel[k] != sim[k]}
    assert not differ, f"kernel vs ssdsim on blkparse: {differ}"
    print(f"{kver}: blkparse replay of {kernel['commands']} requests: "
          f"WAF {sim['waf']:.3f} in both")
    vm.record_timing(kver, "timing test", res.wall_s)


def key_values(output: str, tag: str) -> dict[str, str]:
    """The key=value pairs of the line starting with tag."""
    line = re.search(rf"^{tag} (.*)$", output, re.M).group(1)
    return dict(kv.split("=", 1) for kv in line.split())


def test_memory_limit_enospc_and_big_discard(vm: Any, kver: str) -> None:
    """In a 1 GiB VM: geometries whose metadata does not fit are refused at
    power=1 (no WARNING in the kernel log, which vm.run checks); dd on a
    device twice its memory limit, and on one larger than the VM's RAM
    with the default limit, stops at ENOSPC with the guest alive and no
    OOM; blkdiscard gives the room back; a 4.6 GiB discard completes."""
    res = vm.run(guest("memory.sh"), kver, files=FILES, timeout_s=1200,
                 memory_mb=1024)
    out = res.output
    assert "memory ok" in out
    for message in ("exceed the 2^32-1 limit",
                    "a table of the flash would be over 2047 MiB",
                    "a table of the ftl would be over 2047 MiB",
                    "memory_limit_mb=0 (half of the RAM): metadata needs",
                    "memory_limit_mb=2: metadata needs"):
        assert f"{message}" in out
    full = {k: float(v) for k, v in key_values(out, "FULL").items()}
    mib = 1 << 20
    assert full["device"] >= 2 * 64 * mib and full["limit"] < 64 * mib
    assert full["limit"] - 2 * mib < full["written"] <= full["limit"]
    assert full["written"] <= full["data"] <= full["limit"]
    big = {k: float(v) for k, v in key_values(out, "BIG").items()}
    assert big["device"] > big["ram"] > big["limit"]
    assert big["limit"] - 2 * mib < big["written"] <= big["limit"]
    assert big["heartbeat_gap"] < 10
    discard = {k: float(v) for k, v in key_values(out, "DISCARD").items()}
    print(f"{kver}: dd on a {full['device'] / mib:.0f} MiB device with "
          f"memory_limit_mb=64: {full['written'] / mib:.0f} MiB written "
          f"(data limit {full['limit'] / mib:.1f} MiB) in "
          f"{full['fill_s']:.1f} s, then ENOSPC; a {big['device'] / mib:.0f}"
          f" MiB device in {big['ram'] / mib:.0f} MiB of RAM, default "
          f"limit: {big['written'] / mib:.0f} MiB written in "
          f"{big['fill_s']:.1f} s, then ENOSPC (heartbeat gap "
          f"{big['heartbeat_gap']:.2f} s); whole-device discard in "
          f"{discard['seconds']:.2f} s, {discard['stats_polls']:.0f} stats "
          f"calls answered meanwhile")
    vm.record_timing(kver, "memory test", res.wall_s)
