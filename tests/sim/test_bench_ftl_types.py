"""The FTL types benchmark's host side (bench/ftl_types.py,
bench/ftl_types_vm.py) without its long runs: the types come from the
ftl_type key as ssdsim lists it (a new value shows up, a help text that
merely has a colon is no list), DFTL is swept only when its CMT key
exists, the synthetic trace is what it says, the published results are
judged from the numbers (both ways), the VM's phases become differences
of the stats (a missing phase or verify is an error), and ftl-types.md
keeps the ssdsim part when a kernel's table is written."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from asan_ssdsim import SSDSIM, ssdsim
from bench import ftl_types as ft
from bench import ftl_types_vm as fv
import ssdsim as sim


def test_choices_of_an_enum_key_only() -> None:
    key = sim.Key("ftl_type", "page", "how the FTL maps the main region; the"
                  " SLC region is page-mapped: page, block, bast, fast, dftl")
    assert sim.choices(key) == ["page", "block", "bast", "fast", "dftl"]
    # A help with a colon whose default is not among the words: no enum.
    assert sim.choices(sim.Key("read_priority", "0", "1: host reads"
                               " suspend programs; 0: FIFO")) == []
    assert sim.choices(sim.Key("chips", "8", "flash chips")) == []


def test_types_are_the_builds_ftl_type_values() -> None:
    ssdsim("--list-keys")  # fails the test if the ASan build is missing
    names = ft.types(SSDSIM)
    assert names[0] == sim.list_keys(SSDSIM)["ftl_type"].default == "page"
    assert names == sim.choices(sim.list_keys(SSDSIM)["ftl_type"])


def test_dftl_swept_only_with_its_key() -> None:
    assert ft.variants(["page", "dftl"], False) == [
        ("page", "page", None), ("dftl", "dftl", None)]
    swept = ft.variants(["page", "dftl"], True)
    assert [v[0] for v in swept] == (
        ["page"] + [f"dftl cmt={n}/{d}" if n != d else "dftl cmt=1x"
                    for n, d in ft.CMT_FRACTIONS])
    assert [v[2] for v in swept[1:]] == ft.CMT_FRACTIONS
    assert ft.cmt_entries(8704, (1, 64)) == 136
    assert ft.cmt_entries(10, (1, 64)) == 1
    keys = ft.device_keys(["blocks_per_chip=9"], "dftl", (1, 8), 800)
    assert keys[-3:] == ["blocks_per_chip=9", "ftl_type=dftl",
                         "dftl_cmt_entries=100"]


def lpns(path: Path) -> list[int]:
    rows = [line.split() for line in path.read_text().splitlines()]
    assert all(r[3] == "8" and r[4] == "0" for r in rows)  # 4 KiB writes
    assert [int(r[0]) for r in rows] == [i * 1000 for i in range(len(rows))]
    return [int(r[2]) // 8 for r in rows]


def test_synthetic_trace(tmp_path: Path) -> None:
    path = tmp_path / "t"
    ft.synthetic_trace(path, 50, 1.0, 120, gap_ns=1000)
    assert lpns(path) == [i % 50 for i in range(120)]
    ft.synthetic_trace(path, 50, 0.0, 2000, gap_ns=1000)
    pages = lpns(path)
    assert min(pages) == 0 and max(pages) == 49
    assert sum(b == a + 1 for a, b in zip(pages, pages[1:])) < 200
    ft.synthetic_trace(path, 1000, 0.5, 4000, gap_ns=1000)
    steps = sum(b == a + 1 for a, b in zip(lpns(path), lpns(path)[1:]))
    assert 500 < steps < 1500  # about a quarter of pairs: seq then seq


def row(waf: float, full: int = 0, ops: float | None = None,
        programs: int = 100) -> dict[str, Any]:
    r: dict[str, Any] = {"waf": waf, "ftl_full_merges": full,
                         "flash_program_pages": programs}
    if ops is not None:
        r["translation_ops_per_host_page"] = ops
    return r


def result(bast_rand: float, fast_rand: float,
           dftl_ops: list[float] | None, dftl_1x_programs: int = 100
           ) -> dict[str, Any]:
    fractions = [(1, 64), (1, 8), (1, 1)] if dftl_ops else []
    labels = ["dftl cmt=1/64", "dftl cmt=1/8", "dftl cmt=1x"]

    def rows(page: float, bast: float, fast: float, full: int
             ) -> dict[str, Any]:
        out = {"page": row(page), "bast": row(bast, full),
               "fast": row(fast, full // 4)}
        for i, label in enumerate(labels if dftl_ops else []):
            out[label] = row(page, ops=dftl_ops[i] if dftl_ops else 0,
                             programs=dftl_1x_programs if i == 2 else 120)
        return out
    return {"types": ["page", "block", "bast", "fast"]
            + (["dftl"] if dftl_ops else []),
            "cmt_fractions": fractions,
            "workloads": {"seq100": {"rows": rows(1.0, 1.0, 1.0, 0)},
                          "rand100": {"rows": rows(1.8, bast_rand,
                                                   fast_rand, 400)}}}


def test_claims_agree_from_the_numbers() -> None:
    c = ft.claims(result(52.0, 6.0, [1.7, 1.5, 0.0]))
    assert c["lee"]["agrees"] is True
    assert "bast: WAF 52.00 on rand100 vs 1.00 on seq100" in \
        c["lee"]["evidence"]
    assert c["fast"]["agrees"] is True
    assert c["gupta"]["agrees"] is True


def test_claims_disagree_from_the_numbers() -> None:
    # Random writes no worse than sequential, FAST worse than BAST, DFTL's
    # overhead rising with the CMT.
    c = ft.claims(result(1.5, 1.6, [1.0, 1.2, 0.0]))
    assert c["lee"]["agrees"] is False
    assert c["fast"]["agrees"] is False
    assert c["gupta"]["agrees"] is False
    # Flat at zero proves nothing; 1x not the page FTL's programs is no.
    assert ft.claims(result(52, 6, [0.0, 0.0, 0.0]))["gupta"]["agrees"] \
        is False
    assert ft.claims(result(52, 6, [1.7, 1.5, 0.0], 101)
                     )["gupta"]["agrees"] is False


def test_claims_not_measured_without_the_types() -> None:
    c = ft.claims(result(52.0, 6.0, None))
    assert c["gupta"]["agrees"] is None
    r = result(52.0, 6.0, None)
    r["types"] = ["page"]
    for w in r["workloads"].values():
        w["rows"] = {"page": w["rows"]["page"]}
    c = ft.claims(r)
    assert c["lee"]["agrees"] is None and c["fast"]["agrees"] is None


def stats(**counters: int) -> dict[str, Any]:
    base = {k: 0 for k in fv.COUNTERS}
    base.update(logical_capacity_bytes=8704 * 4096, page_size_bytes=4096,
                ftl_map_ram_bytes=6352, ftl_metadata_bytes=85000)
    base.update(counters)
    return base


def fio(mean_ns: float, p99_ns: int) -> str:
    return json.dumps({"jobs": [{"write": {
        "clat_ns": {"mean": mean_ns, "percentile": {"99.000000": p99_ns}},
        "total_ios": 1024}}]})


def guest_output(skip: str = "", verify: bool = True) -> str:
    after = {"fill": stats(host_write_pages=7168, flash_program_pages=7168,
                           flash_program_tlc_pages=7168),
             "rand": stats(host_write_pages=8192, flash_program_pages=60000,
                           flash_program_tlc_pages=60000,
                           flash_erase_blocks=900, ftl_full_merges=450,
                           write_commands=1224,
                           write_latency_ns_total=45_000_000_000),
             "seq": stats(host_write_pages=9216, flash_program_pages=61100,
                          flash_program_tlc_pages=61100,
                          flash_erase_blocks=916, ftl_full_merges=450,
                          ftl_switch_merges=16, write_commands=1256,
                          write_latency_ns_total=45_320_000_000),
             "verify": stats(host_write_pages=9728)}
    lines = []
    for phase, st in after.items():
        if phase == skip:
            continue
        lines += [f"FIO-BEGIN bast-{phase}", fio(2e6, 3_000_000),
                  f"FIO-END bast-{phase}", f"STATS-BEGIN bast-{phase}",
                  json.dumps(st), f"STATS-END bast-{phase}"]
    if verify:
        lines.append("VERIFY bast ok")
    return "\n".join(lines + ["ftl_types_vm ok"]) + "\n"


def test_vm_phases_are_differences_of_the_stats() -> None:
    t = fv.parse(guest_output(), ["bast"])["bast"]
    assert list(t["phases"]) == ["rand", "seq"]
    rand, seq = t["phases"]["rand"], t["phases"]["seq"]
    assert rand["host_write_pages"] == 1024
    assert rand["waf"] == pytest.approx((60000 - 7168) / 1024)
    assert rand["ftl_full_merges"] == 450
    assert rand["device_write_mean_ms"] == pytest.approx(45e9 / 1224 / 1e6)
    assert seq["waf"] == pytest.approx(1100 / 1024)
    assert seq["ftl_full_merges"] == 0 and seq["ftl_switch_merges"] == 16
    assert seq["device_write_mean_ms"] == pytest.approx(320e6 / 32 / 1e6)
    assert seq["fio_write_p99_ms"] == 3.0
    assert t["ftl_map_ram_bytes"] == 6352 and t["logical_pages"] == 8704


def test_vm_missing_phase_or_verify_refused() -> None:
    with pytest.raises(ValueError, match="seq"):
        fv.parse(guest_output(skip="seq"), ["bast"])
    with pytest.raises(ValueError, match="verify"):
        fv.parse(guest_output(verify=False), ["bast"])


def test_vm_runs_give_dftl_its_cmt() -> None:
    assert fv.runs(["page", "dftl"], True, 8704) == [
        ("page", ["ftl_type=page"]),
        ("dftl", ["ftl_type=dftl", "dftl_cmt_entries=1088"])]
    assert fv.runs(["page", "dftl"], False, 8704)[1] == (
        "dftl", ["ftl_type=dftl"])


def test_md_keeps_every_part(tmp_path: Path) -> None:
    ft.write_part("Kernel 6.1 (in the VM): fio on every type", ["| vm |"],
                  tmp_path)
    ft.write_part(ft.SIM_HEADING, ["| sim |"], tmp_path)
    ft.write_part(ft.CLAIMS_HEADING, ["| claims |"], tmp_path)
    ft.write_part(ft.SIM_HEADING, ["| sim again |"], tmp_path)
    text = (tmp_path / "ftl-types.md").read_text()
    assert text.startswith(ft.TITLE)
    order = [text.index(s) for s in ("| sim again |", "| claims |",
                                     "| vm |")]
    assert order == sorted(order) and "| sim |" not in text
