"""The device's own adversarial suite, in a VM on every target kernel.

What a hostile or careless user does to the module, each category in one
boot (guest scripts in tests/vm/guest/): tearing devices down under load,
writing nonsense to every configfs attribute, fuzzing the ioctls, and
lifecycle loops.  The VM bed fails a test on any kernel WARNING, BUG, oops
or hung-task report; here the scripts' own counts are checked too.
"""
from __future__ import annotations

import errno
import re
import subprocess
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUEST = HERE / "guest"
FILES = {
    "/lib.sh": str(GUEST / "lib.sh"),
    "/usr/bin/ioctl_fuzz": str(ROOT / "build" / "bin" / "ioctl_fuzz"),
    "/usr/bin/ioctl_probe": str(ROOT / "build" / "bin" / "ioctl_probe"),
}

# A teardown that takes longer than this is waiting for modeled time.
TEARDOWN_MAX_S = 5.0


def guest(name: str) -> str:
    return (GUEST / name).read_text()


def tagged(output: str, tag: str) -> dict[str, dict[str, str]]:
    """Lines 'TAG name=N key=value ...' as {N: {key: value}}."""
    found: dict[str, dict[str, str]] = {}
    for line in re.findall(rf"^{tag} (.*)$", output, re.M):
        fields = dict(kv.split("=", 1) for kv in line.split())
        found[fields["name"]] = fields
    return found


def test_teardown_under_load(vm: Any, kver: str) -> None:
    """rmdir with a full queue of I/O on the slowest preset, and on a
    device with minutes of modeled backlog, returns at once; so does fio;
    the hung-task detector (10 s) stays quiet; `ssdctl destroy` of an open
    disk is refused at once and leaves it working; rmmod is refused while
    a device exists."""
    res = vm.run(guest("teardown.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "teardown ok" in out
    runs = tagged(out, "TEARDOWN")
    assert set(runs) == {"preset", "slow", "mounted"}
    for name, run in runs.items():
        assert float(run["seconds"]) < TEARDOWN_MAX_S, run
        assert float(run["fio_exit_s"]) < TEARDOWN_MAX_S, run
        # Requests were pending, and the kernel said how far ahead.
        assert int(run["backlog_ms"]) > 0, run
    for name in ("preset", "slow"):
        assert int(runs[name]["inflight"]) >= 4000
    # The slow device held minutes of modeled time: waiting for it would
    # have tripped the hung-task detector many times over.
    assert int(runs["slow"]["backlog_ms"]) > 60000
    refused = float(re.search(r"REFUSED destroy seconds=([0-9.]+)",
                              out).group(1))
    assert refused < TEARDOWN_MAX_S
    assert "REFUSED rmmod with device" in out
    for name, run in runs.items():
        print(f"{kver}: rmdir {name}: {run['seconds']} s with "
              f"{run['inflight']} requests in flight, up to "
              f"{int(run['backlog_ms']) / 1000:.1f} s ahead of their "
              f"modeled time; fio exited after {run['fio_exit_s']} s")
        vm.record_timing(kver, f"teardown {name}", float(run["seconds"]))
    vm.record_timing(kver, "teardown test", res.wall_s)


class Attempt:
    """One ATTEMPT line of cfs_fuzz.sh, with the kernel lines it logged."""

    def __init__(self, line: str) -> None:
        f = dict(kv.split("=", 1) for kv in line.split(" ", 6)[:6])
        self.seq = int(f["seq"])
        self.cat, self.attr, self.val = f["cat"], f["attr"], f["val"]
        self.mode = f["mode"]
        self.result = line.split(" result=", 1)[1]
        self.kernel: list[str] = []

    def __repr__(self) -> str:
        return (f"{self.cat} {self.attr}={self.val} ({self.mode}): "
                f"{self.result}; kernel: {self.kernel}")


def fuzz_attempts(output: str, dmesg: str) -> list[Attempt]:
    attempts = {a.seq: a for a in
                (Attempt(m) for m in re.findall(r"^ATTEMPT (.*)$", output,
                                                re.M))}
    current = None
    for line in dmesg.splitlines():
        mark = re.search(r"cfs-fuzz mark (\d+)$", line)
        if mark:
            current = attempts.get(int(mark.group(1)))
        elif current is not None and "ssdemu" in line:
            current.kernel.append(line)
    return sorted(attempts.values(), key=lambda a: a.seq)


def oracle(questions: list[tuple[str, bytes]]) -> list[bool]:
    """Userspace's ssd_config_set() verdict on each (key, bytes written)."""
    text = "".join(f"{k}\t{v.hex()}\n" for k, v in questions)
    proc = subprocess.run([str(ROOT / "build" / "bin" / "config_oracle")],
                          input=text, capture_output=True, text=True,
                          check=True, timeout=60)
    return [line == "ok" for line in proc.stdout.splitlines()]


def judge(a: Attempt, keys: set[str], values: dict[str, bytes],
          accepted: dict[int, bool]) -> str:
    """'accepted', 'refused' (cleanly) or why the attempt is a failure."""
    said = bool(a.kernel)
    if a.mode == "ro":
        if a.result == "EACCES":
            return "refused"
        return "read-only attribute took a write"
    if a.result == "ok":
        if a.cat == "values" and a.attr in keys and a.val != "cur" \
                and not accepted[a.seq]:
            return "kernel took a value userspace refuses"
        if a.cat == "values" and a.attr == "power" and a.val != "cur" \
                and values[a.val].strip() not in (b"0", b"1"):
            return "power took something other than 0 or 1"
        if a.cat == "powered" and a.attr != "power":
            return "a key changed while powered"
        return "accepted"
    if a.result not in ("EINVAL", "EBUSY"):
        return f"unexpected result {a.result}"
    if not said:
        return "refused without a kernel message"
    if a.cat == "values" and a.attr in keys:
        if a.val == "cur" or accepted[a.seq]:
            return "kernel refused a value userspace takes"
        if not any(a.attr in line for line in a.kernel):
            return "the kernel message does not name the key"
    return "refused"


def test_configfs_fuzz(vm: Any, kver: str) -> None:
    """Every configfs attribute (found in the VM, so keys added later are
    covered) written with hostile values; power=1 on the survivors and on
    overflowing geometries; writes while powered; rmdir while powered,
    mounted and under fio.  Every attempt must be taken (and then the
    kernel and userspace agree it is valid) or refused with -EINVAL/-EBUSY
    and a kernel message naming the key; no WARNING or oops (vm.run)."""
    # loglevel=7: a hung task's call trace (KERN_INFO) reaches the console,
    # the only log left when a run times out.  Once, under a heavily loaded
    # host, the rmdir under fio hung (CI of 2026-11-23); not reproduced in
    # 120 tries since: the trace is what the next occurrence must show.
    # That rmdir came 2 s after fio's start, maybe before fio had the disk;
    # it now comes once fio has written (tests/vm/FLAKES.md).
    res = vm.run(guest("cfs_fuzz.sh"), kver, files=FILES, timeout_s=600,
                 extra_cmdline="log_buf_len=8M loglevel=7")
    out = res.output
    assert "cfs_fuzz ok" in out
    keys = set(re.search(r"^KEYS (.*)$", out, re.M).group(1).split())
    values = {i: bytes.fromhex(h) + b"\n" for i, h in
              re.findall(r"^VALUE (\d+) ?([0-9a-f]*)$", out, re.M)}
    attempts = fuzz_attempts(out, res.dmesg)
    asked = [a for a in attempts if a.cat == "values" and a.attr in keys
             and a.val != "cur" and a.mode == "rw"]
    verdicts = oracle([(a.attr, values[a.val]) for a in asked])
    accepted = {a.seq: ok for a, ok in zip(asked, verdicts)}
    tally: dict[str, dict[str, int]] = {}
    failures = []
    for a in attempts:
        verdict = judge(a, keys, values, accepted)
        row = tally.setdefault(a.cat, {"attempts": 0, "accepted": 0,
                                       "refused": 0, "failed": 0})
        row["attempts"] += 1
        if verdict in ("accepted", "refused"):
            row[verdict] += 1
        else:
            row["failed"] += 1
            failures.append(f"{verdict}: {a}")
    for cat, row in tally.items():
        print(f"{kver}: configfs {cat:9s} {row['attempts']:4d} attempts, "
              f"{row['accepted']:4d} accepted, {row['refused']:4d} refused "
              f"cleanly, {row['failed']} failed")
    assert not failures, "\n".join(failures[:40])
    # Every key and every value was tried; each category refused something.
    attrs = {a.attr for a in attempts if a.cat == "values"}
    assert keys <= attrs and "power" in attrs
    assert tally["values"]["attempts"] >= len(keys) * len(values)
    for cat in ("values", "survivors", "geometry", "powered"):
        assert tally[cat]["refused"] > 0, cat
    assert tally["geometry"]["accepted"] > 0
    assert tally["rmdir"]["accepted"] == tally["rmdir"]["attempts"] == 3
    vm.record_timing(kver, "configfs fuzz test", res.wall_s)


def test_ioctl_fuzz(vm: Any, kver: str) -> None:
    """Every ioctl with NULL, unmapped, read-only, kernel and straddling
    pointers, 10k random command numbers, NVMe passthrough commands (fixed
    ones with known answers, 5k random), then the same on an fd whose
    disk was removed: only 0, an NVMe status, EFAULT, ENOTTY, EINVAL
    (ENXIO once removed);
    the data and the FTL survive; no splat (vm.run)."""
    res = vm.run(guest("ioctl_fuzz.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "ioctl_fuzz ok" in out
    rows = {}
    for line in re.findall(r"^IOCTL (.*)$", out, re.M):
        f = dict(kv.split("=", 1) for kv in line.split())
        cat = f.pop("cat")
        rows[cat] = {k: int(v) for k, v in f.items()}
    live = [c for c in rows if not c.startswith("stale_")]
    assert sum(rows[c]["calls"] for c in live) >= 10000
    for cat, row in rows.items():
        answers = sum(row[k] for k in ("ok", "efault", "enotty", "einval",
                                       "enxio"))
        assert row["other"] == 0 and answers == row["calls"], (cat, row)
        print(f"{kver}: ioctl {cat:28s} {row['calls']:5d} calls: "
              f"{row['ok']} ok, {row['efault']} EFAULT, {row['enotty']} "
              f"ENOTTY, {row['einval']} EINVAL, {row['enxio']} ENXIO, "
              f"{row['other']} other")
    # Bad pointers were refused, valid calls worked, and the random calls
    # reached the driver's dispatch.
    assert rows["commands"]["efault"] > 0 and rows["commands"]["ok"] > 0
    assert rows["random_ssdemu_type"]["ok"] > 0
    assert rows["random_ssdemu_type"]["efault"] > 0
    assert rows["stale_commands"]["enxio"] == rows["stale_commands"]["calls"]
    # NVMe passthrough: the fixed commands got the answers they must (a
    # wrong one is "other"); random ones reached the commands.
    fixed = rows["nvme_fixed"]
    assert fixed["ok"] > 0 and fixed["efault"] > 0 and fixed["einval"] > 0
    assert rows["random_nvme"]["ok"] > 0 and rows["random_nvme"]["efault"] > 0
    stale = rows["stale_nvme_fixed"]
    assert stale["enxio"] == stale["calls"]
    vm.record_timing(kver, "ioctl fuzz test", res.wall_s)


def test_lifecycle_loops(vm: Any, kver: str) -> None:
    """50 create/write/read/destroy cycles leave no disk, index or memory
    behind; two devices of different geometry verify under concurrent fio
    while power=0 is refused on them (held open by the test itself, so the
    refusal does not depend on when fio closes them); rmmod is refused
    while a removed disk is still mounted, and works after umount."""
    res = vm.run(guest("lifecycle.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "lifecycle ok" in out
    loop = tagged(out.replace("LOOP ", "LOOP name=loop "), "LOOP")["loop"]
    assert int(loop["cycles"]) == 50
    mem = tagged(out.replace("MEM ", "MEM name=mem "), "MEM")["mem"]
    lost_kib = int(mem["before_kib"]) - int(mem["after_kib"])
    # 40 devices of 576 MiB came and went after 10 that warmed the caches.
    # Noise measured over 6 runs per kernel: -0.1 to +9.0 MiB (slab, page
    # cache).  Each device's tables are about 3 MiB: a leak of them would
    # lose some 120 MiB here, far above the bound.
    assert int(mem["cycles"]) == 40
    assert lost_kib < 32 * 1024, mem
    verify = tagged(out, "VERIFY")
    assert set(verify) == {"a", "b"}
    assert all(int(v["refusals"]) == 10 for v in verify.values())
    assert "RMMOD mounted=refused" in out and "RMMOD unmounted=ok" in out
    print(f"{kver}: 50 create/destroy cycles in {loop['seconds']} s, "
          f"MemAvailable {lost_kib / 1024:+.1f} MiB lost over the last 40; "
          f"concurrent verify "
          f"on two geometries with {verify['a']['refusals']} refused "
          f"power-offs (WAF {verify['a']['waf']} and {verify['b']['waf']}); "
          f"{re.search(r'RMMOD mounted=refused: (.*)', out).group(1)}")
    vm.record_timing(kver, "lifecycle test", res.wall_s)


def test_ioctl_locking_and_disk_lifetime(vm: Any, kver: str) -> None:
    """One hardware queue by default; an fd open across a refused power=0
    and across rmdir answers ENXIO to every command, and its disk keeps
    its number until the fd is closed; back-to-back consistency checks on
    a big device hold up neither another device's ioctls nor a third's
    power cycles (each took a small part of one check, where a lock shared
    by all devices makes them wait for whole checks); rmdir while a
    process runs checks waits for the one in flight, and the next answers
    ENXIO; no WARNING, oops or hung task (vm.run, detector at 10 s)."""
    # The checks offer the CPU every 4096 pages (ssd_check_resched()):
    # without that, under the kernel's default voluntary preemption, the
    # CPU running a long check ran nothing else until it ended, kworkers
    # bound to it included, and another device's power change waited
    # (seen once in 5 runs: a cycle of 1026 ms against checks of 998 ms).
    res = vm.run(guest("lifetime.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "lifetime ok" in out

    def fields(tag: str) -> dict[str, str]:
        line = re.search(rf"^{tag} (.*)$", out, re.M).group(1)
        return dict(kv.split("=", 1) for kv in line.split())

    mq = {k: int(v) for k, v in fields("MQ").items()}
    assert mq["default"] == 1
    assert mq["zero"] == mq["cpus"]
    # blk-mq gives a single queue map no more queues than CPUs.
    assert mq["three"] == min(3, mq["cpus"])
    stale = fields("STALE")
    assert stale["new"] != stale["old"] and stale["again"] == stale["old"]
    assert out.count("=No such device or address\n") >= 8
    iso = {k: float(v) for k, v in fields("ISOLATION").items()}
    assert iso["checks"] >= 2 and iso["calls"] == 212 and iso["cycles"] == 4
    # Waiting for the checks makes the longest call last about one check
    # (measured with the global lock this replaced: 1746 ms against checks
    # of 1033 ms; with per-device locks 8 ms against 1206 ms): the margins
    # leave room for a loaded host stalling the VM.
    assert iso["call_ms_max"] * 3 < iso["check_ms_min"], iso
    assert iso["cycle_ms_max"] * 2 < iso["check_ms_min"], iso
    loop = fields("CHECKLOOP")
    assert int(loop["ok"]) >= 1 and int(loop["end_errno"]) == errno.ENXIO
    assert re.search(r"ssdemu: big: ssdemu\d+ removed while open", res.dmesg)
    print(f"{kver}: checks of {iso['check_ms_min']:.0f}-"
          f"{iso['check_ms_max']:.0f} ms on one device; meanwhile "
          f"{iso['calls']:.0f} ioctls on another, the longest "
          f"{iso['call_ms_max']:.1f} ms, and {iso['cycles']:.0f} power "
          f"cycles of a third, the longest {iso['cycle_ms_max']:.0f} ms; "
          f"rmdir under checks: {loop['ok']} checks, then ENXIO")
    vm.record_timing(kver, "lifetime test", res.wall_s)
