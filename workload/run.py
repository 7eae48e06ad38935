"""`make workload`: the ProCache paper's Algorithm 2 on the device, scaled.

Boots the test VM once per device setting (write cache policy BASE, REFCNT
or ProCache; dedup off or on), runs workload/guest/algorithm2.sh on
/dev/ssdemu0 with the host's userland shared over virtio-9p, and collects
per step: wall time in the VM, the device's modeled time, and its counters
(host writes, SLC and TLC programs and erases, dedup).  Each step's block
trace (blkparse, D events) is kept, so `workload/replay.py` can replay the
same workload through ssdsim under other settings (done at the end, from
the BASE run's traces).  Results go to
build/workload/out/<scale>/<setting>/ (stats.json, traces) and the report
to workload/results/ (workload/report.py).

usage: workload/run.py [--scale tiny|small] [--settings base,refcnt,...]
                       [--kver KVER] [--report-only]
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "vm"))
sys.path.insert(0, str(HERE))
import prepare  # noqa: E402
import report  # noqa: E402
import vmrun  # noqa: E402

# The device: the paper's (configs/procache-tlc.conf: 2 KiB pages, 32
# chips, its timings) shrunk to 2 GiB of flash, 1.7 GiB logical, with 24
# of each chip's 256 blocks in SLC mode: a 48 MiB write cache, 2.8% of the
# logical space (the paper: 1 GB of 32 GB, 3.1%).
CONFIG = "/configs/procache-tlc.conf"
DEVICE_KEYS = ["blocks_per_chip=256", "slc_blocks_per_chip=24"]
SETTINGS: dict[str, list[str]] = {
    "base": ["cache_policy=always"],
    "refcnt": ["cache_policy=refcnt"],
    "procache": ["cache_policy=procache", "procache_p_ppm=100000",
                 "procache_c_bytes=16384"],
    "procache-dedup": ["cache_policy=procache", "procache_p_ppm=100000",
                       "procache_c_bytes=16384", "dedup=1"],
}
STATS_RE = re.compile(r"STATS-BEGIN (\S+)\n(.*?)\nSTATS-END \1", re.S)
STEP_RE = re.compile(r"WORKLOAD-STEP (\d+) (\S+) ([0-9.]+)")


def parse_output(output: str) -> dict[str, Any]:
    """Steps (wall seconds) and stats snapshots the guest printed."""
    stats = {tag: json.loads(body) for tag, body in STATS_RE.findall(output)}
    steps = []
    for rnd, name, wall in STEP_RE.findall(output):
        tag = f"r{rnd}-{name}"
        steps.append({"round": int(rnd), "step": name,
                      "wall_s": float(wall),
                      "before": stats[f"{tag}-before"],
                      "after": stats[f"{tag}-after"]})
    return {"steps": steps, "final": stats.get("final")}


def run_setting(name: str, scale: prepare.Scale, inputs: Path,
                out: Path, kver: str | None) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    conf = (f'CONFIG={CONFIG}\nKEYS="{" ".join(DEVICE_KEYS + SETTINGS[name])}"'
            f"\nINPUTS={inputs}\nROUNDS={scale.rounds}\n"
            f"COPIES={scale.image_copies}\nLABEL=.\n")
    shares = dict(vmrun.HOST_ROOT_SHARE)
    shares["results"] = vmrun.Share(out, readonly=False)
    t0 = time.monotonic()
    res = vmrun.run_in_vm(
        (HERE / "guest" / "algorithm2.sh").read_text(), kver=kver,
        files={"/lib.sh": str(ROOT / "tests" / "vm" / "guest" / "lib.sh"),
               "/etc/workload.conf": conf.encode()},
        timeout_s=6 * 3600, memory_mb=4096, shares=shares)
    if not res.ok or "WORKLOAD-DONE" not in res.output:
        raise SystemExit(f"workload {name}: the VM run failed\n"
                         + res.summary() + "\n" + res.output[-3000:])
    result = parse_output(res.output)
    result.update(setting=name, keys=DEVICE_KEYS + SETTINGS[name],
                  kernel=res.kver, vm_wall_s=time.monotonic() - t0)
    (out / "stats.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", choices=sorted(prepare.SCALES),
                    default="small")
    ap.add_argument("--settings", default="base,refcnt,procache,"
                    "procache-dedup", help="comma-separated, of: "
                    + ", ".join(SETTINGS))
    ap.add_argument("--kver")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild the report from the last runs")
    args = ap.parse_args()
    scale = prepare.SCALES[args.scale]
    names = [s for s in args.settings.split(",") if s]
    for name in names:
        if name not in SETTINGS:
            ap.error(f"unknown setting {name!r}")
    out_root = prepare.WORK / "out" / scale.name
    if not args.report_only:
        inputs = prepare.prepare(scale)
        for name in names:
            print(f"workload: {name}: booting the VM ({scale.name} scale)",
                  flush=True)
            r = run_setting(name, scale, inputs, out_root / name, args.kver)
            for s in r["steps"]:
                print(f"  round {s['round']} {s['step']:15} "
                      f"{s['wall_s']:8.1f} s wall", flush=True)
    results = [json.loads((out_root / n / "stats.json").read_text())
               for n in names if (out_root / n / "stats.json").exists()]
    extra: list[str] = []
    if (out_root / "base" / "stats.json").exists():
        import replay  # here: replay imports this module
        extra = replay.markdown(replay.sweep(scale, "base"), "base")
    path = report.write(results, scale, HERE / "results", extra)
    print(f"workload: report in {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
