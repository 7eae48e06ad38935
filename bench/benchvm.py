"""The bench VM: one boot of bench/guest/bench.sh for the VM sections.

Owns the boot (the variables bench.sh runs with, from the options and the
analytic model; the time it will take; the VM itself), the transcript it
leaves in bench/results/raw-<kernel>.txt, and turning a transcript into
the results of the sections it ran, each section analyzing its part.
"""
from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path
from typing import Any

from bench import fidelity, readlat, sections
from bench.model import AnalyticModel
from bench.section import RESULTS, Options
from bench.transcript import Transcript
from ssdtools import vmrun
from ssdtools.paths import GUEST_LIB, ROOT

SCRIPT = ROOT / "bench" / "guest" / "bench.sh"


def run(names: list[str], opts: Options) -> dict[str, Any]:
    """Boot the bench VM for the VM sections among names; their results."""
    model = AnalyticModel.of(opts.preset)
    lat_model = AnalyticModel.of(opts.latency_preset)
    seq_qd = model.queue_depth_for_all_chips(fidelity.SEQ_REQUEST_BYTES)
    vm_sections = [s for s in sections.IN_BENCH_VM if s.NAME in names]
    env = {"SECTIONS": " ".join(s.NAME for s in vm_sections),
           "PRESET": opts.preset, "LAT_PRESET": opts.latency_preset,
           "LAT_PAGE_BYTES": lat_model.page,
           "RUNTIME": opts.runtime_s, "ROUNDS": opts.rounds,
           "LAT_ROUNDS": opts.latency_rounds,
           "GC_RUNTIME": opts.gc_runtime_s,
           "RL_FILL": readlat.FILL, "RL_RUNTIME": opts.readlat_runtime_s,
           "RL_WRITE_IOPS": readlat.WRITE_IOPS,
           "SEQ_QD": seq_qd, "MODEL_READ_NS": round(lat_model.qd1_read_ns()),
           "MODEL_WRITE_NS": round(lat_model.qd1_write_ns())}
    script = "".join(f"{k}={shlex.quote(str(v))}\n"
                     for k, v in env.items())
    script += SCRIPT.read_text()
    seconds = sum(s.guest_seconds(opts) for s in vm_sections)
    minutes = math.ceil((seconds + 30) / 60)
    print(f"booting the bench VM (about {minutes} minutes under TCG)...",
          flush=True)
    res = vmrun.run_in_vm(script, kver=opts.kver, timeout_s=3600,
                          memory_mb=4096, files={"/lib.sh": str(GUEST_LIB)})
    RESULTS.mkdir(parents=True, exist_ok=True)
    raw = RESULTS / f"raw-{opts.kver}.txt"
    Transcript(res.kver, res.boot_s, env, res.output).save(raw)
    if not res.ok:
        sys.exit("bench VM failed:\n" + res.summary())
    return analyze(raw)


def analyze(raw: Path) -> dict[str, Any]:
    """Turn a raw VM transcript (written by run()) into the results of the
    sections it ran."""
    t = Transcript.load(raw)
    result: dict[str, Any] = {"kernel": t.kernel, "vm_boot_s": t.boot_s}
    for s in sections.IN_BENCH_VM:
        if s.NAME in t.sections:
            result.update(s.analyze(t, result))
    return result
