"""Record what one workload step's writes left on the device.

Runs inside the VM (chrooted in the host's userland, after the step and
its stats): reads, with O_DIRECT, every 512-byte sector the step's write
requests covered (the blkparse D events) and writes one record per sector,
<sector: u64 little-endian><MD5 of its 512 bytes: 16 bytes>, in sector
order.  workload/replay.py turns these into the content hashes of the
replayed writes, so ssdsim's dedup sees the workload's data.

A sector written twice in one step gets the content of its last write (the
file system's journal and bitmaps are rewritten within a step): the replay
sees such rewrites as writes of the final content.  The step's requests
are read here (step_requests()) for the capture and the replay alike, so
the replay's writes are exactly the captured sectors.

It imports nothing but the standard library: the guest
(workload/guest/algorithm2.sh) runs it as a script with the chroot's
python3, where the repository's packages are not on the path;
workload/replay.py imports it as workload.capture.

usage: capture.py DEVICE STEP.blkparse OUT.md5
"""
from __future__ import annotations

import hashlib
import mmap
import os
import struct
import sys
import time
from pathlib import Path
from typing import Iterator

SECTOR_BYTES = 512
READ_BYTES = 1 << 20


def rwbs_op(rwbs: str) -> str | None:
    """The request log's op letter for a blkparse RWBS string (as ssdsim's
    blkparse reader reads it: a leading F is a preflush of what follows)."""
    if rwbs == "F":
        return "F"
    letter = rwbs[1:2] if rwbs.startswith("F") else rwbs[:1]
    if letter == "N":
        return "F" if rwbs.startswith("F") else None
    return {"D": "T", "W": "W", "R": "R"}.get(letter)


def step_requests(path: Path) -> Iterator[tuple[int, str, int, int]]:
    """(time_ns, op, sector, sectors) of a step's D events, by time."""
    reqs = []
    for seq, line in enumerate(path.read_text().splitlines()):
        f = line.split()
        if len(f) < 7 or "," not in f[0] or f[5] != "D":
            continue
        op = rwbs_op(f[6])
        if op is None:
            continue
        sector = count = 0
        if len(f) >= 10 and f[8] == "+":
            sector, count = int(f[7]), int(f[9])
        if count == 0 and op != "F":
            continue
        sec, _, frac = f[3].partition(".")
        t_ns = int(sec) * 10**9 + int((frac + "000000000")[:9])
        reqs.append((t_ns, seq, op, sector, count))
    for t_ns, _, op, sector, count in sorted(reqs):
        yield t_ns, op, sector, count


def written_sectors(blkparse: Path) -> list[int]:
    """The sectors the step's write requests covered, sorted."""
    sectors: set[int] = set()
    for _, op, start, count in step_requests(blkparse):
        if op == "W":
            sectors.update(range(start, start + count))
    return sorted(sectors)


def extents(sectors: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive sectors as (first, count), each <= READ_BYTES."""
    runs: list[tuple[int, int]] = []
    limit = READ_BYTES // SECTOR_BYTES
    for s in sectors:
        if runs and runs[-1][0] + runs[-1][1] == s and runs[-1][1] < limit:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((s, 1))
    return runs


def capture(device: str, blkparse: Path, out: Path) -> int:
    sectors = written_sectors(blkparse)
    buf = mmap.mmap(-1, READ_BYTES)     # page-aligned, as O_DIRECT needs
    view = memoryview(buf)
    fd = os.open(device, os.O_RDONLY | os.O_DIRECT)
    try:
        with open(out, "wb") as dst:
            for first, count in extents(sectors):
                want = count * SECTOR_BYTES
                got = os.preadv(fd, [view[:want]], first * SECTOR_BYTES)
                if got != want:
                    raise SystemExit(f"capture: short read at sector {first}")
                for i in range(count):
                    md5 = hashlib.md5(
                        view[i * SECTOR_BYTES:(i + 1) * SECTOR_BYTES])
                    dst.write(struct.pack("<Q", first + i) + md5.digest())
    finally:
        os.close(fd)
        view.release()
        buf.close()
    return len(sectors)


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    t0 = time.monotonic()
    n = capture(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]))
    print(f"workload: captured {n} sectors in {time.monotonic() - t0:.1f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
