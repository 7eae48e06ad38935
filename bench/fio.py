"""fio's JSON output, as the bench sections read it.

Owns the figures taken from a fio run (--output-format=json): IOPS,
bandwidth and latencies of a job's busier direction, or of one direction
of a named job.
"""
from __future__ import annotations

import json
from typing import Any


def fio_summary(raw: str) -> dict[str, float]:
    """IOPS, MB/s, mean latency and completion latency mean and median (us)
    of the job's busier direction."""
    job = json.loads(raw[raw.index("{"):])["jobs"][0]
    side = job["write"] if job["write"]["io_bytes"] else job["read"]
    clat = side["clat_ns"]
    return {"iops": side["iops"], "mb_per_s": side["bw_bytes"] / 1e6,
            "lat_us": side["lat_ns"]["mean"] / 1000,
            "clat_mean_us": clat["mean"] / 1000,
            "clat_p50_us": clat.get("percentile", {}).get("50.000000", 0)
            / 1000}


def jobs(raw: str) -> dict[str, dict[str, Any]]:
    """The jobs of a fio run, by name."""
    return {j["jobname"]: j for j in json.loads(raw[raw.index("{"):])["jobs"]}


def fio_side(job: dict[str, Any], side: str) -> dict[str, float]:
    """IOPS and completion latency (mean, p50, p99; us) of one direction
    of one fio job."""
    d = job[side]
    clat = d["clat_ns"]
    pct = clat.get("percentile", {})
    return {"iops": d["iops"], "ios": d["total_ios"],
            "clat_mean_us": clat["mean"] / 1000,
            "clat_p50_us": pct.get("50.000000", 0) / 1000,
            "clat_p99_us": pct.get("99.000000", 0) / 1000,
            "clat_max_us": clat["max"] / 1000}
