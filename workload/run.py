"""`make workload`: the ProCache paper's Algorithm 2 on the device, scaled.

Boots the test VM once per device setting (write cache policy BASE, REFCNT
or ProCache; dedup off or on), runs workload/guest/algorithm2.sh on
/dev/ssdemu0 with the host's userland shared over virtio-9p, prints the
guest's progress as it arrives, and collects per step: wall time in the
VM, the device's modeled time, and its counters (host writes, SLC and TLC
programs and erases, GC, dedup).  Each step's block trace (blkparse, D
events) is kept and, in the BASE run, what the step's writes left on the
device (workload/capture.py), so `workload/replay.py` can replay the same
workload, content included, through ssdsim under other settings (done at
the end).  Results go to build/workload/out/<scale>/<setting>/
(stats.json, traces) and the report to workload/results/
(workload/report.py).

usage: python3 -m workload.run [--scale tiny|small] [--rounds N]
                                [--cold-percent P]
                                [--settings nocache,base,...]
                                [--kver KVER] [--report-only | --record-only]
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from ssdtools import guest, vmrun
from ssdtools.paths import GUEST_LIB, ROOT
from ssdtools.procache_device import PRESET, SETTINGS, device_keys
from workload import prepare, replay, report
from workload.settings import DEFAULT_SETTINGS, REPLAY_SOURCE

HERE = Path(__file__).resolve().parent
# The preset in the guest (the VM has the repository's configs/ there).
CONFIG = f"/configs/{PRESET}"
STEP_RE = re.compile(r"WORKLOAD-STEP (\d+) (\S+) ([0-9.]+)")


def parse_output(output: str) -> dict[str, Any]:
    """Steps (wall seconds) and stats snapshots the guest printed."""
    stats = guest.stats_blocks(output)
    steps = []
    for rnd, name, wall in STEP_RE.findall(output):
        tag = f"r{rnd}-{name}"
        steps.append({"round": int(rnd), "step": name,
                      "wall_s": float(wall),
                      "before": stats[f"{tag}-before"],
                      "after": stats[f"{tag}-after"]})
    return {"steps": steps, "final": stats.get("final")}


def show_progress(line: str) -> None:
    """The guest's progress lines, as they arrive."""
    if line.startswith("workload: "):
        print(f"  {line[len('workload: '):]}", flush=True)
    elif line.startswith("WORKLOAD-STEP "):
        _, rnd, step, wall = line.split()
        print(f"  round {rnd} {step}: {float(wall):.1f} s wall", flush=True)


def run_setting(name: str, scale: prepare.Scale, inputs: Path,
                out: Path, kver: str | None, capture: bool) -> dict[str, Any]:
    """One VM run of Algorithm 2 on a device with setting @name; with
    @capture, each step's written content is recorded for the replay."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    keys = device_keys(scale.name, name)
    cold = prepare.cold_file(scale)
    conf = (f'CONFIG={CONFIG}\nKEYS="{" ".join(keys)}"\n'
            f"MOUNT_OPTS={SETTINGS[name].mount}\n"
            f"INPUTS={inputs}\nROUNDS={scale.rounds}\n"
            f"COPIES={scale.image_copies}\nLABEL=.\n"
            f"COLD={cold or ''}\n"
            f"CAPTURE={int(capture)}\nCAPTURE_PY={HERE / 'capture.py'}\n")
    shares = dict(vmrun.HOST_ROOT_SHARE)
    shares["results"] = vmrun.Share(out, readonly=False)
    t0 = time.monotonic()
    res = vmrun.run_in_vm(
        (HERE / "guest" / "algorithm2.sh").read_text(), kver=kver,
        files={"/lib.sh": str(GUEST_LIB),
               "/etc/workload.conf": conf.encode()},
        timeout_s=6 * 3600, memory_mb=4096, shares=shares,
        on_line=show_progress)
    if not res.ok or "WORKLOAD-DONE" not in res.output:
        raise SystemExit(f"workload {name}: the VM run failed\n"
                         + res.summary() + "\n" + res.output[-3000:])
    result = parse_output(res.output)
    result.update(setting=name, keys=keys, mount=SETTINGS[name].mount,
                  rounds=scale.rounds, cold_percent=scale.cold_percent,
                  cold_mib=prepare.cold_mib(scale) if cold else 0,
                  kernel=res.kver,
                  vm_wall_s=time.monotonic() - t0)
    (out / "stats.json").write_text(json.dumps(result, indent=1) + "\n")
    return result


def missing_runs(out_root: Path, names: list[str]) -> list[str]:
    """The settings among @names with no recorded run under @out_root."""
    return [n for n in names if not (out_root / n / "stats.json").exists()]


def recorded(out_root: Path, names: list[str], key: str) -> set[int]:
    """The values of @key (rounds, cold_percent) the recorded runs of
    @names were made with (0 where a run predates the key)."""
    return {int(json.loads((out_root / n / "stats.json").read_text())
                .get(key, 0)) for n in names}


def recorded_rounds(out_root: Path, names: list[str]) -> set[int]:
    """The rounds the recorded runs of @names were made with."""
    return recorded(out_root, names, "rounds")


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be 1 or more")
    return value


def cold_percent(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 80:
        raise argparse.ArgumentTypeError(f"{text}: must be 0 to 80 (the "
                                         "rounds need the rest)")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", choices=sorted(prepare.SCALES),
                    default="small")
    ap.add_argument("--rounds", type=positive_int,
                    help="repetitions of Algorithm 2 (default: the scale's, "
                    + ", ".join(f"{s.name} {s.rounds}"
                                for s in prepare.SCALES.values())
                    + "; with --report-only, the recorded runs')")
    ap.add_argument("--cold-percent", type=cold_percent,
                    help="the cold data set written before round 1 and "
                    "kept, in percent of the cached device's logical space "
                    "(default: the scale's, "
                    + ", ".join(f"{s.name} {s.cold_percent}"
                                for s in prepare.SCALES.values())
                    + "; with --report-only, the recorded runs')")
    ap.add_argument("--settings", default=",".join(DEFAULT_SETTINGS),
                    help="comma-separated, of: " + ", ".join(SETTINGS))
    ap.add_argument("--kver")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild the report from the last runs")
    ap.add_argument("--record-only", action="store_true",
                    help="run the settings in the VM and stop: no replay,"
                    " no report (claims/procache.py replays the"
                    " base run)")
    args = ap.parse_args(argv)
    args.names = [s for s in args.settings.split(",") if s]
    for name in args.names:
        if name not in SETTINGS:
            ap.error(f"unknown setting {name!r}")
    return args


def refuse(message: str) -> int:
    # A report from fewer runs than named, or from runs of another
    # length, would overwrite the committed one: refuse, write nothing.
    print(f"workload: --report-only: {message}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scale = prepare.SCALES[args.scale]
    names = args.names
    out_root = prepare.WORK / "out" / scale.name
    if args.report_only:
        missing = missing_runs(out_root, names)
        if missing:
            return refuse(
                f"no recorded run of {', '.join(missing)} in {out_root} "
                "(run `make workload` first, or name the settings that ran "
                "with --settings)")
        rounds = recorded_rounds(out_root, names)
        if len(rounds) != 1 or (args.rounds and rounds != {args.rounds}):
            return refuse(
                f"the runs in {out_root} were made with rounds "
                f"{sorted(rounds)}, not one common "
                + (f"{args.rounds}" if args.rounds else "number")
                + " (run them again with the same --rounds)")
        cold = recorded(out_root, names, "cold_percent")
        if len(cold) != 1 or (args.cold_percent is not None
                              and cold != {args.cold_percent}):
            return refuse(
                f"the runs in {out_root} were made with cold percents "
                f"{sorted(cold)}, not one common "
                + (f"{args.cold_percent}" if args.cold_percent is not None
                   else "one")
                + " (run them again with the same --cold-percent)")
        scale = replace(scale, rounds=rounds.pop(),
                        cold_percent=cold.pop())
    else:
        if args.rounds:
            scale = replace(scale, rounds=args.rounds)
        if args.cold_percent is not None:
            scale = replace(scale, cold_percent=args.cold_percent)
        inputs = prepare.prepare(scale)
        for name in names:
            print(f"workload: {name}: booting the VM ({scale.name} scale, "
                  f"{scale.rounds} round(s), cold data "
                  f"{scale.cold_percent}%)", flush=True)
            r = run_setting(name, scale, inputs, out_root / name, args.kver,
                            capture=name == REPLAY_SOURCE)
            print(f"workload: {name}: {r['vm_wall_s']:.0f} s in the VM",
                  flush=True)
        if args.record_only:
            return 0
    results = [json.loads((out_root / n / "stats.json").read_text())
               for n in names if (out_root / n / "stats.json").exists()]
    extra: list[str] = []
    rows: list[dict[str, Any]] = []
    fig89: list[dict[str, Any]] = []
    source = out_root / REPLAY_SOURCE / "stats.json"
    recorded_source = (json.loads(source.read_text())
                       if source.exists() else {})
    if (recorded_source.get("rounds", scale.rounds) == scale.rounds
            and recorded_source.get("cold_percent", 0)
            == scale.cold_percent):
        print("workload: replaying the traces through ssdsim", flush=True)
        t0 = time.monotonic()
        rows = replay.sweep(scale, REPLAY_SOURCE)
        print(f"workload: {len(rows)} replays in "
              f"{time.monotonic() - t0:.0f} s", flush=True)
        extra = replay.markdown(rows, REPLAY_SOURCE)
        t0 = time.monotonic()
        fig89 = replay.fig89_sweep(scale, REPLAY_SOURCE)
        print(f"workload: Figs 8/9: {len(fig89)} settings in "
              f"{time.monotonic() - t0:.0f} s", flush=True)
    path = report.write(results, scale, HERE / "results", extra, rows,
                        fig89)
    print(f"workload: report in {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
