"""Section 4 of `make bench`: read latency under writes, on the device.

configs/small-test.conf written sequentially over 80% of its space in the
bench VM, then two fio jobs over that range: 4 KiB random writes at QD1
limited to 200 IOPS, and 4 KiB random reads at QD1; the reader's
completion latency (mean, p50, p99), the writer's, and the channel busy
fraction.  Again with read_priority=1 when the module has that key.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bench import fio
from bench.model import preset
from bench.section import Options
from bench.transcript import Transcript
from ssdtools import guest

NAME = "readlat"
CONF = "small-test.conf"
FILL = "80%"
WRITE_IOPS = 200


def guest_seconds(opts: Options) -> float:
    return 2 * (opts.readlat_runtime_s + 20)


def analyze(t: Transcript, results: dict[str, Any]) -> dict[str, Any]:
    return {"readlat": summarize(t.env, t.output, t.stats)}


def channel_busy(pre: dict[str, Any], post: dict[str, Any],
                 channels: int) -> float:
    """Busy fraction of the channels between two stats (counters reset at
    pre; virtual time is not)."""
    span = post["virtual_time_ns"] - pre["virtual_time_ns"]
    busy = post["channel_busy_ns_total"] - pre["channel_busy_ns_total"]
    return busy / (channels * span) if span > 0 else 0.0


def summarize(env: dict[str, Any], output: str,
              stats: dict[str, Any]) -> dict[str, Any]:
    channels = preset(CONF)["channels"]
    runs: dict[str, Any] = {}
    for tag, text in guest.blocks(output, "FIO").items():
        if not tag.startswith("readlat-"):
            continue
        tag = tag.removeprefix("readlat-")
        jobs = fio.jobs(text)
        pre, post = stats[f"readlat-{tag}-pre"], stats[f"readlat-{tag}"]
        timed = post["timed_completions"]
        runs[tag] = {
            "read": fio.fio_side(jobs["reader"], "read"),
            "write": fio.fio_side(jobs["writer"], "write"),
            "channel_busy_fraction": channel_busy(pre, post, channels),
            "device_command_latency_mean_us":
            post["command_latency_ns_total"] / max(1, post["commands"])
            / 1000,
            "gc_relocated_pages": post["gc_relocated_pages"],
            "late_completions": post["late_completions"],
            "timed_completions": timed,
            "late_mean_us": post["late_ns_total"] / max(1, timed) / 1000,
            "final": post,
        }
    return {"config": CONF, "fill": env["RL_FILL"],
            "runtime_s": int(env["RL_RUNTIME"]),
            "write_iops_limit": int(env["RL_WRITE_IOPS"]), "runs": runs}


def show(r: dict[str, Any]) -> None:
    rl = r["readlat"]
    print(f"\n4. read latency under writes ({rl['config']}, {rl['fill']}"
          f" written sequentially, then {rl['runtime_s']} s of 4 KiB random"
          f" writes at QD1 limited to {rl['write_iops_limit']} IOPS and 4 KiB"
          " random reads at QD1; fio completion latency in us)")
    print(f"{'variant':14s} {'rd IOPS':>8s} {'rd mean':>8s} {'rd p50':>8s}"
          f" {'rd p99':>8s} {'wr IOPS':>8s} {'wr mean':>8s} {'wr p99':>8s}"
          f" {'ch busy':>8s} {'model lat':>9s} {'late mean':>9s}"
          f" {'GC pages':>8s}")
    for tag, v in rl["runs"].items():
        rd, wr = v["read"], v["write"]
        print(f"{tag:14s} {rd['iops']:8.0f} {rd['clat_mean_us']:8.1f}"
              f" {rd['clat_p50_us']:8.1f} {rd['clat_p99_us']:8.1f}"
              f" {wr['iops']:8.0f} {wr['clat_mean_us']:8.1f}"
              f" {wr['clat_p99_us']:8.1f} {v['channel_busy_fraction']:8.2%}"
              f" {v['device_command_latency_mean_us']:9.1f}"
              f" {v['late_mean_us']:9.1f} {v['gc_relocated_pages']:8d}")
    if "read_priority" not in rl["runs"]:
        print("(no read_priority key in the module: not run with"
              " read_priority=1)")


def figures(results: dict[str, Any]) -> list[Path]:
    return []
