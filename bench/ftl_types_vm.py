"""The FTL types on the device (in the VM): WAF, erases, merges,
translation traffic and write latency per `ftl_type` under fio.

The types are those the host's ssdsim lists for `ftl_type` (the same
tree as the module: bench/ftl_types.types); DFTL, when the build has
`dftl_cmt_entries`, runs with a CMT of VM_CMT_FRACTION of the logical
pages.  One VM boot (ssdtools.vmrun, the first kernel unless --kver,
one vCPU) runs bench/guest/ftl_types_vm.sh: per type, a fresh device of
configs/small-test.conf with bench/ftl_types.py's DEVICE keys (4 chips,
40 blocks of 64 pages, 15% over-provisioning, timing=1: 34 MiB logical)
and fio at QD1 (psync, O_DIRECT), in fixed sizes so the run ends
deterministically:

- fill: sequential 128 KiB writes over the first FILL_MB (80% of it);
- rand: RAND_MB of 4 KiB random writes over that range (seeded);
- seq: SEQ_MB of sequential 128 KiB writes from offset 0;
- verify: VERIFY_MB of 4 KiB random writes with verify=crc32c, read back
  and checked by fio (a bad block fails the run), then `ssdctl check`.

Each phase's figures are the differences of the device's statistics
before and after it: WAF (flash programs / host page writes), erases,
merges by kind and the pages they copied, translation page reads and
writes; the latency is fio's completion latency (mean and p99 over the
phase's requests; timing=1 completes each at its modeled time, so it is
the model's plus the guest's overhead).  Writes
bench/results/ftl-types-vm-<kernel>.json and the kernel's table in
ftl-types.md (beside the ssdsim tables).

Standalone: python3 -m bench.ftl_types_vm [--kver KVER]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench import ftl_types, own_vm
from bench.section import RESULTS, Options
from ssdtools import guest, vmrun
import ssdsim as sim
from ssdtools.paths import GUEST_LIB, ROOT

NAME = "ftltypesvm"
PROGRESS = "VM: FTL types on the device (fio random and sequential)"
SCRIPT = ROOT / "bench" / "guest" / "ftl_types_vm.sh"
RAW = ROOT / "build" / "bench-ftl-types-vm.txt"
FILL_MB = 28
RAND_MB = 12
SEQ_MB = 4
VERIFY_MB = 2
VM_CMT_FRACTION = (1, 8)
PHASES = ("fill", "rand", "seq", "verify")
REPORTED = ("rand", "seq")
CPUS = 1
COUNTERS = ("host_write_pages", "flash_program_pages",
            "flash_program_tlc_pages", "flash_erase_blocks",
            "ftl_switch_merges", "ftl_partial_merges", "ftl_full_merges",
            "flash_program_merge_pages", "dftl_translation_reads",
            "dftl_translation_writes", "write_commands",
            "write_latency_ns_total")


def runs(type_names: list[str], has_cmt_key: bool, logical_pages: int
         ) -> list[tuple[str, list[str]]]:
    """(tag, keys) per device: each type, DFTL with its CMT size."""
    out = []
    for t in type_names:
        keys = [f"{ftl_types.TYPE_KEY}={t}"]
        if t == ftl_types.DFTL and has_cmt_key:
            keys.append(f"{ftl_types.CMT_KEY}="
                        f"{ftl_types.cmt_entries(logical_pages, VM_CMT_FRACTION)}")  # noqa: E501
        out.append((t, keys))
    return out


def delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The counters' growth over a phase (a counter the build lacks:
    absent)."""
    return {k: after[k] - before[k] for k in COUNTERS
            if k in after and k in before}


def fio_latency(fio: dict[str, Any]) -> dict[str, float]:
    """Mean and p99 completion latency (ms) of a fio run's writes."""
    clat = fio["jobs"][0]["write"]["clat_ns"]
    return {"fio_write_mean_ms": clat["mean"] / 1e6,
            "fio_write_p99_ms": clat["percentile"]["99.000000"] / 1e6,
            "fio_write_ios": fio["jobs"][0]["write"]["total_ios"]}


def phase_row(before: dict[str, Any], after: dict[str, Any],
              fio: dict[str, Any]) -> dict[str, Any]:
    d = delta(before, after)
    writes = max(d["host_write_pages"], 1)
    row: dict[str, Any] = dict(d)
    row["waf"] = d["flash_program_pages"] / writes
    row["tlc_waf"] = d["flash_program_tlc_pages"] / writes
    row["device_write_mean_ms"] = (d["write_latency_ns_total"]
                                   / max(d["write_commands"], 1) / 1e6)
    row.update(fio_latency(fio))
    return row


def parse(output: str, tags: list[str]) -> dict[str, Any]:
    """Per tag: each reported phase's row and the device's mapping RAM;
    every phase of every tag must be there, and its verify ok."""
    stats = guest.stats_blocks(output)
    fios = guest.blocks(output, "FIO")
    out: dict[str, Any] = {}
    for tag in tags:
        missing = [p for p in PHASES if f"{tag}-{p}" not in stats
                   or f"{tag}-{p}" not in fios]
        if missing or f"VERIFY {tag} ok" not in output:
            raise ValueError(f"{tag}: phases {missing or 'ok'} missing,"
                             " or no verify")
        rows = {}
        for i, p in enumerate(PHASES):
            if p in REPORTED:
                rows[p] = phase_row(stats[f"{tag}-{PHASES[i - 1]}"],
                                    stats[f"{tag}-{p}"],
                                    json.loads(fios[f"{tag}-{p}"]))
        last = stats[f"{tag}-{PHASES[-1]}"]
        out[tag] = {"phases": rows,
                    "ftl_map_ram_bytes": last.get("ftl_map_ram_bytes"),
                    "ftl_metadata_bytes": last.get("ftl_metadata_bytes"),
                    "logical_pages": last["logical_capacity_bytes"]
                    // last["page_size_bytes"]}
    return out


def run(kver: str, ssdsim: Path = sim.SSDSIM) -> dict[str, Any]:
    names = ftl_types.types(ssdsim)
    has_cmt = ftl_types.CMT_KEY in sim.list_keys(ssdsim)
    pages = ftl_types.logical_pages_of(ftl_types.DEVICE, ssdsim)
    devices = runs(names, has_cmt, pages)
    script = (f"RUNS='{' '.join(t + ':' + ','.join(k) for t, k in devices)}'\n"  # noqa: E501
              f"DEVICE='{' '.join(ftl_types.DEVICE)}'\n"
              f"FILL_MB={FILL_MB}\nRAND_MB={RAND_MB}\nSEQ_MB={SEQ_MB}\n"
              f"VERIFY_MB={VERIFY_MB}\n" + SCRIPT.read_text())
    res = vmrun.run_in_vm(script, kver=kver,
                          files={"/lib.sh": str(GUEST_LIB)},
                          timeout_s=1800, cpus=CPUS)
    RAW.parent.mkdir(parents=True, exist_ok=True)
    RAW.write_text(res.output)  # to look at if the parse fails
    if not res.ok or "ftl_types_vm ok" not in res.output:
        raise RuntimeError(f"FTL types VM bench failed: {res.summary()}\n"
                           f"{res.output[-2000:]}")
    return {"kernel": res.kver, "device": ftl_types.DEVICE,
            "runs": {t: k for t, k in devices},
            "fill_mb": FILL_MB, "rand_mb": RAND_MB, "seq_mb": SEQ_MB,
            "verify_mb": VERIFY_MB, "cpus": CPUS,
            "vm_wall_s": round(res.wall_s, 1),
            "types": parse(res.output, [t for t, _ in devices])}


def _get(r: dict[str, Any], key: str, digits: int = 0) -> str:
    v = r.get(key)
    if v is None:
        return "-"
    return f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def heading(result: dict[str, Any]) -> str:
    return f"Kernel {result['kernel']} (in the VM): fio on every type"


def table_lines(result: dict[str, Any]) -> list[str]:
    lines = [f"Device: configs/small-test.conf with"
             f" {' '.join(result['device'])}, a fresh one per type"
             f" (keys: {'; '.join(' '.join(k) for k in result['runs'].values())});"  # noqa: E501
             f" qemu TCG, {result['cpus']} vCPU, one boot"
             f" ({result['vm_wall_s']:.0f} s of host wall time). fio at"
             " QD1 (psync, O_DIRECT) after a sequential 128 KiB fill of"
             f" the first {result['fill_mb']} MiB: rand ="
             f" {result['rand_mb']} MiB of 4 KiB random writes over it,"
             f" seq = {result['seq_mb']} MiB of 128 KiB sequential writes"
             " from offset 0 after them; every type then passed"
             f" {result['verify_mb']} MiB of fio verify=crc32c and"
             " `ssdctl check`. Counters: the phase's growth; latency:"
             " fio's completion latency.", "",
             "| type | phase | WAF | TLC WAF | erases | switch | partial"
             " | full | merge copies | transl. reads | transl. writes"
             " | fio write mean ms | fio write p99 ms"
             " | device write mean ms | map RAM B |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for tag, t in result["types"].items():
        for p, r in t["phases"].items():
            lines.append(
                f"| {tag} | {p} | {r['waf']:.3f} | {r['tlc_waf']:.3f}"
                f" | {_get(r, 'flash_erase_blocks')}"
                f" | {_get(r, 'ftl_switch_merges')}"
                f" | {_get(r, 'ftl_partial_merges')}"
                f" | {_get(r, 'ftl_full_merges')}"
                f" | {_get(r, 'flash_program_merge_pages')}"
                f" | {_get(r, 'dftl_translation_reads')}"
                f" | {_get(r, 'dftl_translation_writes')}"
                f" | {r['fio_write_mean_ms']:.2f}"
                f" | {r['fio_write_p99_ms']:.2f}"
                f" | {r['device_write_mean_ms']:.2f}"
                f" | {_get(t, 'ftl_map_ram_bytes')} |")
    return lines


def write_results(result: dict[str, Any], out_dir: Path = RESULTS) -> None:
    own_vm.save(result, "ftl-types-vm", ftl_types.write_part,
                heading(result), table_lines(result), out_dir)


def measure(opts: Options) -> dict[str, Any]:
    """The section of `make bench` (bench/section.py)."""
    return own_vm.measure(opts, run, write_results)


def show(results: dict[str, Any]) -> None:
    own_vm.show("FTL types on the device (VM)", table_lines(results[NAME]))


if __name__ == "__main__":
    sys.exit(own_vm.main(__doc__, lambda kver, ssdsim, _: run(kver, ssdsim),
                         table_lines, write_results))
