"""Record what one workload step's writes left on the device.

Runs inside the VM (chrooted in the host's userland, after the step and
its stats): reads, with O_DIRECT, every 512-byte sector the step's write
requests covered (the blkparse D events) and writes one record per sector,
<sector: u64 little-endian><MD5 of its 512 bytes: 16 bytes>, in sector
order.  workload/replay.py turns these into the content hashes of the
replayed writes, so ssdsim's dedup sees the workload's data.

A sector written twice in one step gets the content of its last write (the
file system's journal and bitmaps are rewritten within a step): the replay
sees such rewrites as writes of the final content.

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

SECTOR_BYTES = 512
READ_BYTES = 1 << 20


def written_sectors(blkparse: Path) -> list[int]:
    """The sectors the step's write requests (D events) covered, sorted."""
    sectors: set[int] = set()
    for line in blkparse.read_text().splitlines():
        f = line.split()
        # maj,min cpu seq time pid action rwbs sector + count [comm]
        if (len(f) < 10 or "," not in f[0] or f[5] != "D"
                or "W" not in f[6] or "D" in f[6] or f[8] != "+"):
            continue
        start, count = int(f[7]), int(f[9])
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
