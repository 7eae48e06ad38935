"""Host CPU cost of the dedup layer's real SHA-1 in the kernel module.

Boots the VM once (ssdtools.vmrun) and runs fio 4 KiB random writes
(QD16, libaio, direct) on a device with timing=0, so the I/O completes as
soon as the model has run and the host CPU is the limit: dedup off, then
dedup=1 with the filter off and no buffer (every page hashed by the
kernel's crypto API, a "sha1" crypto_shash), then with the default
filter and buffer; off and the filter again with fio's refill_buffers
(fresh random data per write).  Each run is repeated; the median IOPS is
kept.  Under TCG the CPU is emulated, so the ratio between the runs is
the figure that carries over, not the IOPS.  Writes the "host_cpu" entry
of bench/results/dedup-sweep.json.

Standalone: python3 -m bench.dedup_host_cpu [--kver K] [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from typing import Any

from bench.section import RESULTS
from ssdtools import initramfs, vmrun
from ssdtools.paths import ROOT

# name -> (device keys, extra fio options).  fio's default buffers are
# one random buffer with a few bytes scrambled per 512-byte block: every
# write's filter sample (20 bytes at offset 1000) is the same, so the
# filter hashes them all; refill_buffers gives fresh random data.
VARIANTS = {
    "off": ("dedup=0", ""),
    "hash-every-write": ("dedup=1 dedup_filter=0 dedup_buffer_pages=0", ""),
    "filter+buffer": ("dedup=1", ""),
    "off-refill": ("dedup=0", "--refill_buffers"),
    "filter+buffer-refill": ("dedup=1", "--refill_buffers"),
}
SCRIPT = """
insmod /lib/ssdemu/ssdemu.ko || exit 1
for round in $(seq {rounds}); do
for v in {names}; do
    case $v in
{cases}
    esac
    dev=$(ssdctl create h --config /configs/small-test.conf timing=0 $keys)
    fio --name=w --filename=$dev --rw=randwrite --bs=4k --iodepth=16 \\
        --ioengine=libaio --direct=1 --size=128M --runtime={runtime} \\
        --time_based --randrepeat=1 --output-format=terse \\
        --terse-version=3 $extra > /tmp/w.terse || exit 1
    echo "IOPS $v $(cut -d';' -f49 /tmp/w.terse)"
    ssdctl destroy h || exit 1
done
done
"""


def run(kver: str | None, rounds: int, runtime_s: int) -> dict[str, Any]:
    cases = "\n".join(f'    {name}) keys="{keys}" extra="{extra}" ;;'
                      for name, (keys, extra) in VARIANTS.items())
    script = SCRIPT.format(rounds=rounds, names=" ".join(VARIANTS),
                           cases=cases, runtime=runtime_s)
    res = vmrun.run_in_vm(script, kver=kver, timeout_s=1200)
    if not res.ok:
        raise RuntimeError(res.summary() + "\n" + res.output)
    iops: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for name, value in re.findall(r"^IOPS (\S+) (\d+)", res.output, re.M):
        iops[name].append(float(value))
    median = {name: statistics.median(v) for name, v in iops.items()}
    return {"kernel": kver or initramfs.default_kernels()[0],
            "rounds": rounds, "runtime_s": runtime_s, "iops": iops,
            "median_iops": median,
            "relative_to_off": {
                name: median[name] / median["off-refill" if "refill" in name
                                            else "off"]
                for name in VARIANTS}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kver", help="kernel (default: the first of"
                        " build/kernel-versions)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runtime", type=int, default=5,
                        help="seconds of each fio run")
    args = parser.parse_args()
    result = run(args.kver, args.rounds, args.runtime)
    for name, value in result["median_iops"].items():
        print(f"{name:18s} {value:10.0f} IOPS"
              f" ({result['relative_to_off'][name]:.2f} of off)")
    out = RESULTS / "dedup-sweep.json"
    merged = json.loads(out.read_text()) if out.exists() else {}
    merged["host_cpu"] = result
    out.write_text(json.dumps(merged, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)} (host_cpu)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
