"""The workload's host side without a VM: the guest's output is parsed
into steps, step traces are joined in order with shifted times and replay
through ssdsim, and the report's per-step figures are the stats' deltas."""
from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import pytest

from ssdtools import procache_hits
from workload import replay, report, run


def stats(**kw: int) -> dict[str, int]:
    base = {k: 0 for k in report.COUNTERS}
    base.update(kw)
    return base


def test_guest_output_parsed_into_steps() -> None:
    before = stats(host_write_bytes=100)
    after = stats(host_write_bytes=4196, flash_program_tlc_pages=3,
                  dedup_chunks_written=4, dedup_duplicate_chunks=1)
    out = (f"STATS-BEGIN r1-web-before\n{json.dumps(before)}\n"
           "STATS-END r1-web-before\n"
           f"noise\nSTATS-BEGIN r1-web-after\n{json.dumps(after)}\n"
           "STATS-END r1-web-after\nWORKLOAD-STEP 1 web 2.5\n")
    parsed = run.parse_output(out)
    assert [s["step"] for s in parsed["steps"]] == ["web"]
    row = report.step_row(parsed["steps"][0])
    assert row["wall_s"] == 2.5
    assert row["host_mib"] == pytest.approx(4096 / 2**20)
    assert row["tlc_programs"] == 3
    assert row["dup_percent"] == pytest.approx(25.0)


def blk_line(t: float, sector: int, rwbs: str = "W") -> str:
    return f"8,0 0 1 {t:.9f} 42 D {rwbs} {sector} + 8 [cp]"


def write_content(path: Path, sectors: dict[int, bytes]) -> None:
    """A capture.py file: <sector u64 LE><MD5 16 bytes> per sector."""
    path.write_bytes(b"".join(struct.pack("<Q", s) + hashlib.md5(d).digest()
                              for s, d in sorted(sectors.items())))


def test_joined_trace_keeps_step_order(tmp_path: Path) -> None:
    for i, step in enumerate(replay.STEP_ORDER):
        lines = [blk_line(0.5, 1000 * i), blk_line(0.25, 1000 * i + 8),
                 "8,0 0 2 0.300000000 42 Q W 5 + 8 [cp]",
                 "8,0 0 3 0.600000000 42 D FN [jbd2]",
                 "CPU0 (8,0):", " Reads Queued: 0"]
        (tmp_path / f"r1-{step}.blkparse").write_text("\n".join(lines))
    joined = tmp_path / "joined.log"
    assert not replay.join_traces(tmp_path, 1, joined)
    records = [line.split() for line in joined.read_text().splitlines()]
    assert len(records) == 3 * len(replay.STEP_ORDER)
    assert [r[1] for r in records[:3]] == ["W", "W", "F"]
    times = [int(r[0]) for r in records]
    offsets = [int(r[2]) // 512 for r in records]
    # Every step starts after the previous one's last event, in time order.
    for i in range(1, len(replay.STEP_ORDER)):
        assert min(times[3 * i:3 * i + 3]) > max(times[:3 * i])
    assert times == sorted(times)
    assert offsets[::3] == [1000 * i + 8
                            for i in range(len(replay.STEP_ORDER))]
    assert all(len(r) == 5 for r in records), "no content was captured"
    assert replay.SSDSIM.exists(), "build/bin/ssdsim missing: run 'make'"
    st = replay.replay(joined, ["blocks_per_chip=64", "chips=4"])
    assert st["host_write_bytes"] == 2 * 8 * 512 * len(replay.STEP_ORDER)


def test_captured_content_reaches_the_replay(tmp_path: Path) -> None:
    """Every step writes the same 4 KiB at its own place: with the
    captured MD5s the replay's dedup finds them, and a sector written but
    not captured is an error, not a silent guess."""
    same = {s: bytes([s % 8]) * 512 for s in range(8)}
    for i, step in enumerate(replay.STEP_ORDER):
        sector = 4096 * i
        (tmp_path / f"r1-{step}.blkparse").write_text(
            blk_line(0.1, sector) + "\n" + blk_line(0.2, 8, "R") + "\n")
        write_content(tmp_path / f"r1-{step}.md5",
                      {sector + s: d for s, d in same.items()})
    joined = tmp_path / "joined.log"
    assert replay.join_traces(tmp_path, 1, joined)
    writes = [line.split() for line in joined.read_text().splitlines()
              if line.split()[1] == "W"]
    assert {w[5] for w in writes} == {writes[0][5]}
    assert len(writes[0][5]) == 8 * 32
    # No buffer: the filter over the live chunks finds the copies.
    st = replay.replay(joined, ["blocks_per_chip=64", "chips=4", "dedup=1",
                                "dedup_buffer_pages=0",
                                "dedup_filter_live_chunks=1"])
    # 2 KiB pages: 2 per write, every write after the first a duplicate.
    assert st["dedup_duplicate_chunks"] == 2 * (len(replay.STEP_ORDER) - 1)
    write_content(tmp_path / "r1-remove.md5", {0: b"x" * 512})
    with pytest.raises(SystemExit, match="not captured"):
        replay.join_traces(tmp_path, 1, joined)


def test_capture_records_what_the_writes_left(tmp_path: Path) -> None:
    """capture.py on a file standing in for the device: one record per
    sector the step's D writes covered (not reads, not discards, not
    other actions), with that sector's MD5, in sector order."""
    from workload import capture
    device = tmp_path / "device"
    data = b"".join(hashlib.sha256(bytes([i])).digest() * 16
                    for i in range(64))
    device.write_bytes(data)
    trace = tmp_path / "step.blkparse"
    trace.write_text("\n".join([
        blk_line(0.1, 10), blk_line(0.2, 14),   # 10..21, overlapping
        blk_line(0.3, 40, "R"), blk_line(0.4, 50, "DS"),
        "8,0 0 2 0.5 42 Q W 30 + 8 [cp]", "8,0 0 3 0.6 42 D FN [jbd2]",
        blk_line(0.7, 60)[:-len(" + 8 [cp]")] + " + 4 [cp]"]) + "\n")
    out = tmp_path / "step.md5"
    assert capture.capture(str(device), trace, out) == 12 + 4
    records = list(struct.iter_unpack("<Q16s", out.read_bytes()))
    assert [s for s, _ in records] == [*range(10, 22), *range(60, 64)]
    for sector, md5 in records:
        assert md5 == hashlib.md5(data[sector * 512:(sector + 1) * 512]
                                  ).digest()


def fake_run(setting: str, tlc: int, slc: int, dup: int) -> dict:
    """A run.py result of one step whose counters are the arguments."""
    after = stats(host_write_bytes=2**20, flash_program_tlc_pages=tlc,
                  flash_program_slc_pages=slc,
                  flash_erase_slc_blocks=slc // 64,
                  write_latency_ns_total=(tlc + 3 * slc) * 10**6,
                  dedup_chunks_written=100 if dup else 0,
                  dedup_duplicate_chunks=dup)
    return {"setting": setting, "keys": [], "kernel": "k",
            "steps": [{"round": 1, "step": "image-copy", "wall_s": 1.0,
                       "before": stats(), "after": after}]}


def test_report_reads_the_figures_of_the_run(tmp_path: Path) -> None:
    results = [fake_run("base", 400, 600, 0), fake_run("refcnt", 500, 50, 0),
               fake_run("procache", 520, 30, 0),
               fake_run("procache-dedup", 260, 20, 50)]
    path = report.write(results, run.prepare.SCALES["tiny"], tmp_path)
    text = path.read_text()
    # programs 1000 -> 550: -45.0%; TLC alone 400 -> 520: +30.0%
    assert "ProCache programs -45.0% pages against BASE" in text
    assert "ProCache is +30.0%: BASE's cache absorbs" in text
    assert "60% of its programs are SLC" in text
    assert "| DVD/CD images | 100 | 50.0% | 50.0% |" in text
    # dedup against procache: 550 -> 280 programs
    assert "Programs with dedup -49.1% against `procache`" in text
    # Plots need matplotlib (install-deps.sh --workload); without it the
    # report says so instead.
    assert ((tmp_path / "tiny" / "fig11-flash.png").exists()
            or "(matplotlib missing: no plots)" in text)


def _forbid_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that must refuse writes no report and runs no replay."""
    def no_report(*args: object, **kw: object) -> Path:
        raise AssertionError("a report was written")

    monkeypatch.setattr(report, "write", no_report)
    monkeypatch.setattr(replay, "sweep", no_report)


@pytest.mark.parametrize("present", [[], ["base"]])
def test_report_only_refuses_without_the_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], present: list[str]) -> None:
    """--report-only with no recorded runs, or fewer than the settings
    named, exits non-zero with a message and writes no report (it once
    overwrote the committed one with an empty one and exited 0)."""
    from workload import prepare
    monkeypatch.setattr(prepare, "WORK", tmp_path)
    for name in present:
        out = tmp_path / "out" / "tiny" / name
        out.mkdir(parents=True)
        (out / "stats.json").write_text(json.dumps(fake_run(name, 1, 1, 0)))

    _forbid_report(monkeypatch)
    monkeypatch.setattr("sys.argv", ["run.py", "--scale", "tiny",
                                     "--settings", "base,refcnt",
                                     "--report-only"])
    assert run.main() == 1
    err = capsys.readouterr().err
    missing = "base, refcnt" if not present else "refcnt"
    assert f"no recorded run of {missing} in {tmp_path / 'out' / 'tiny'}" \
        in err
    assert "--settings" in err


def one_write(tmp_path: Path) -> Path:
    trace = tmp_path / "one.log"
    trace.write_text("0 W 0 4096 0\n")
    return trace


@pytest.mark.parametrize("scale", sorted(run.prepare.SCALES))
def test_no_cache_baseline_has_the_same_flash_and_no_slc(
        tmp_path: Path, scale: str) -> None:
    """The paper's baseline: the cached device's flash, every block TLC,
    no cache; ssdsim takes every setting's keys at every scale."""
    from ssdtools import procache_device as settings
    stats = {name: replay.replay(one_write(tmp_path),
                                 settings.device_keys(scale, name))
             for name in settings.SETTINGS}
    nocache, base = stats["nocache"], stats["base"]
    flash = {n: s["config"]["chips"] * s["config"]["blocks_per_chip"]
             for n, s in stats.items() if n != "nocache-equal"}
    assert len(set(flash.values())) == 1, flash
    assert nocache["config"]["slc_blocks_per_chip"] == 0
    assert base["config"]["slc_blocks_per_chip"] > 0
    assert nocache["cache_capacity_pages"] == 0
    assert base["cache_capacity_pages"] > 0
    assert nocache["flash_program_slc_pages"] == 0
    # The SLC blocks hold the logical space now.
    assert (nocache["logical_capacity_bytes"]
            > base["logical_capacity_bytes"])
    # The cache is about the paper's share of the logical space (3.1%).
    cache = (base["cache_capacity_pages"]
             * base["config"]["page_size_bytes"])
    assert 0.02 < cache / base["logical_capacity_bytes"] < 0.04


@pytest.mark.parametrize("scale", sorted(run.prepare.SCALES))
def test_capacity_equivalent_baseline(tmp_path: Path, scale: str) -> None:
    """nocache-equal: no cache, and the TLC flash of the cached device
    plus its cache's capacity, to the nearest block per chip (the paper's
    33 GB against 32 GB + a 1 GB cache); its logical space holds the
    cached device's."""
    from ssdtools import procache_device as settings
    eq = replay.replay(one_write(tmp_path),
                       settings.device_keys(scale, "nocache-equal"))
    base = replay.replay(one_write(tmp_path),
                         settings.device_keys(scale, "base"))
    conf, bconf = eq["config"], base["config"]
    assert conf["slc_blocks_per_chip"] == 0 and eq["cache_capacity_pages"] \
        == 0
    row_bytes = (bconf["chips"] * bconf["pages_per_block"]
                 * bconf["page_size_bytes"])
    main = bconf["blocks_per_chip"] - bconf["slc_blocks_per_chip"]
    cache = base["cache_capacity_pages"] * bconf["page_size_bytes"]
    assert conf["blocks_per_chip"] == round(main + cache / row_bytes)
    assert conf["blocks_per_chip"] == settings.EQUAL_FLASH_BLOCKS[scale]
    assert eq["logical_capacity_bytes"] >= base["logical_capacity_bytes"]


def test_procache_uses_the_papers_c_and_p(tmp_path: Path) -> None:
    """c = 8 KiB, p = 0.1 (the paper's comparison), in every ProCache
    setting and as ssdsim reads them."""
    from ssdtools import procache_device as settings
    names = [n for n, s in settings.SETTINGS.items()
             if "cache_policy=procache" in s.keys]
    assert {"procache", "procache-dedup", "procache-discard"} <= set(names)
    for name in names:
        conf = replay.replay(one_write(tmp_path),
                             settings.device_keys("tiny", name))["config"]
        assert conf["procache_c_bytes"] == 8192
        assert conf["procache_p_ppm"] == 100000
    assert settings.SETTINGS["procache-discard"].mount == "discard"
    assert all(s.mount == "nodiscard" for n, s in settings.SETTINGS.items()
               if n != "procache-discard")


def test_replay_sweep_settings_are_valid(tmp_path: Path) -> None:
    """Every replay of the sweep is a device ssdsim accepts, at every
    scale; the sweep has the no-cache baseline and background destage."""
    from ssdtools import procache_device as settings
    for scale in run.prepare.SCALES:
        rows = replay.sweep_settings(scale)
        groups = {g for g, _, _ in rows}
        assert {"baseline", "background destage"} <= groups
        for _, _, extra in rows:
            replay.replay(one_write(tmp_path), settings.merged_keys(
                settings.DEVICE_KEYS[scale], extra))


def test_rounds_knob() -> None:
    assert run.parse_args(["--scale", "tiny"]).rounds is None
    assert run.parse_args(["--rounds", "5"]).rounds == 5
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit):
            run.parse_args(["--rounds", bad])
    with pytest.raises(SystemExit):
        run.parse_args(["--settings", "base,nosuch"])
    assert run.parse_args([]).names == run.DEFAULT_SETTINGS


def test_report_only_refuses_runs_of_other_rounds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Runs made with different --rounds are not one report."""
    from workload import prepare
    monkeypatch.setattr(prepare, "WORK", tmp_path)
    for name, rounds in (("base", 2), ("procache", 3)):
        out = tmp_path / "out" / "tiny" / name
        out.mkdir(parents=True)
        r = fake_run(name, 1, 1, 0)
        r["rounds"] = rounds
        (out / "stats.json").write_text(json.dumps(r))

    _forbid_report(monkeypatch)
    assert run.main(["--scale", "tiny", "--settings", "base,procache",
                     "--report-only"]) == 1
    assert "rounds [2, 3]" in capsys.readouterr().err
    assert run.main(["--scale", "tiny", "--settings", "base",
                     "--rounds", "3", "--report-only"]) == 1
    assert "rounds [2]" in capsys.readouterr().err


def test_report_shows_both_baselines(tmp_path: Path) -> None:
    """Each claim of the paper against the no-cache baseline and BASE."""
    results = [fake_run("nocache", 1100, 0, 0),
               fake_run("base", 400, 600, 0),
               fake_run("procache", 520, 30, 0)]
    text = report.write(results, run.prepare.SCALES["tiny"],
                        tmp_path).read_text()
    assert "## Totals against the baselines" in text
    assert "| setting | wall s | modeled write ms | vs nocache | vs base |" \
        in text
    # programs: 550 against 1100 (-50.0%) and 1000 (-45.0%); modeled
    # write ms: 610 against 1100 (-44.5%) and 2200 (-72.3%); erases:
    # 0 against 0 (n/a) and 9 (-100.0%).
    assert "| writes (flash programs, TLC+SLC) | -19.30% | -50.0% | -45.0% |" \
        in text
    assert "| time (paper: elapsed; here: modeled write time) | -7.57% | " \
        "-44.5% | -72.3% |" in text
    assert "| erases (TLC+SLC) | -14.00% | n/a | -100.0% |" in text
    assert report.versus(216, 0) == "216 vs 0"
    assert "| TLC programs alone | - | -52.7% | +30.0% |" in text
    assert "Against `nocache`" in text and "BASE against `nocache`" in text


def replay_row(group: str, policy: str, slc: int, tlc: int, slc_pages: int,
               erases: int, latency_us: float) -> dict:
    return {"group": group, "policy": policy, "dedup": False,
            "blocks_per_chip": 56, "slc_blocks_per_chip": slc,
            "tlc_programs": tlc, "slc_programs": slc_pages,
            "tlc_erases": erases, "slc_erases": 0, "gc_relocated": 7,
            "write_latency_mean_us": latency_us}


def test_replay_claims_against_both_baselines() -> None:
    """From the replay: ProCache, BASE and the no-cache baselines (the
    capacity-equivalent one first) on the VM's device (its SLC blocks),
    not another cache size's rows."""
    rows = [replay_row("baseline", "nocache-equal", 0, 960, 0, 8, 380.0),
            replay_row("baseline", "nocache", 0, 1000, 0, 10, 400.0),
            replay_row("cache size", "base", 4, 1, 1, 1, 1.0),
            replay_row("cache size", "procache", 4, 1, 1, 1, 1.0),
            replay_row("cache size", "base", 8, 900, 600, 20, 800.0),
            replay_row("cache size", "procache", 8, 1100, 100, 12, 300.0)]
    text = "\n".join(report.replay_claims(rows, 8))
    # programs 1200 vs 960 (+25.0%), 1000 (+20.0%) and 1500 (-20.0%);
    # erases 12 vs 8, 10 and 20; latency 300 vs 380, 400 and 800.
    assert ("| claim | paper | ProCache vs `nocache-equal` | ProCache vs"
            " `nocache` | ProCache vs `base` |") in text
    assert ("| writes (flash programs, TLC+SLC) | -19.30% | +25.0% | +20.0%"
            " | -20.0% |") in text
    assert "| erases (TLC+SLC) | -14.00% | +50.0% | +20.0% | -40.0% |" in text
    assert "| -7.57% | -21.1% | -25.0% | -62.5% |" in text
    assert "| nocache | 1000 / 0 | 10 / 0 | 7 | 400 |" in text
    assert "| nocache-equal | 960 / 0 | 8 / 0 | 7 | 380 |" in text
    assert report.replay_claims(rows[1:4], 8) == []
    assert report.replay_claims(rows[1:], 8) == []


def test_cold_percent_knob() -> None:
    """--cold-percent: the scale's by default, 0 to 80 accepted."""
    assert run.parse_args(["--scale", "tiny"]).cold_percent is None
    assert run.parse_args(["--cold-percent", "0"]).cold_percent == 0
    assert run.parse_args(["--cold-percent", "50"]).cold_percent == 50
    for bad in ("-1", "81", "half"):
        with pytest.raises(SystemExit):
            run.parse_args(["--cold-percent", bad])


def test_cold_data_set_is_a_share_of_the_cached_device() -> None:
    """The cold file is cold_percent of the cached device's logical space
    (ssdsim's), in whole MiB; none at 0%."""
    from dataclasses import replace as with_
    from workload import prepare
    tiny = prepare.SCALES["tiny"]
    logical = prepare.logical_bytes("tiny")
    assert logical == replay.replay(
        Path(prepare.WORK / "empty.log"),
        run.device_keys("tiny", "base"))["logical_capacity_bytes"]
    for pct in (10, 50):
        mib = prepare.cold_mib(with_(tiny, cold_percent=pct))
        assert mib == pct * logical // 100 // 2**20
        assert mib * 2**20 <= pct * logical / 100 < (mib + 1) * 2**20
    assert prepare.cold_file(with_(tiny, cold_percent=0)) is None
    assert (prepare.cold_file(tiny).name
            == f"cold-{prepare.cold_mib(tiny)}MiB.bin")


def test_round_zero_is_replayed_before_and_outside_the_rounds(
        tmp_path: Path) -> None:
    """A run with a cold data set (round 0): its step goes to its own log,
    earlier in time than the rounds; the replay runs it first and counts
    the rounds alone, on the device it left."""
    (tmp_path / "r0-cold-fill.blkparse").write_text(
        "\n".join(blk_line(0.1 * i, 8 * i) for i in range(1, 5)) + "\n")
    for step in replay.STEP_ORDER:
        (tmp_path / f"r1-{step}.blkparse").write_text(blk_line(0.5, 8)
                                                      + "\n")
    joined, pre = tmp_path / "joined.log", tmp_path / "pre.log"
    with pytest.raises(SystemExit, match="round 0"):
        replay.join_traces(tmp_path, 1, joined)
    assert not replay.join_traces(tmp_path, 1, joined, pre)
    pre_times = [int(line.split()[0]) for line in
                 pre.read_text().splitlines()]
    times = [int(line.split()[0]) for line in
             joined.read_text().splitlines()]
    assert len(pre_times) == 4 and len(times) == len(replay.STEP_ORDER)
    assert max(pre_times) < min(times)
    keys = ["blocks_per_chip=64", "chips=4"]
    st = replay.replay(joined, keys, pre)
    # The rounds' counters alone: one 4 KiB write per step ...
    assert st["host_write_bytes"] == 4096 * len(replay.STEP_ORDER)
    # ... on the device round 0 left: its four 4 KiB writes (sectors 8-39;
    # the rounds rewrite 8-15) are still there, 2 KiB pages each.
    assert st["valid_pages"] == 4 * 2
    assert replay.replay(joined, keys)["valid_pages"] == 2


def test_report_totals_leave_round_zero_out(tmp_path: Path) -> None:
    """Round 0 (the cold data set) is listed per step, not in the totals
    or the claims."""
    results = []
    for name, tlc, slc in (("nocache", 1100, 0), ("base", 400, 600),
                           ("procache", 520, 30)):
        r = fake_run(name, tlc, slc, 0)
        cold = {"round": 0, "step": "cold-fill", "wall_s": 9.0,
                "before": stats(),
                "after": stats(flash_program_tlc_pages=5000,
                               host_write_bytes=10 * 2**20)}
        r["steps"] = [cold] + [dict(s, before=stats(
            flash_program_tlc_pages=5000, host_write_bytes=10 * 2**20),
            after={k: v + (5000 if k == "flash_program_tlc_pages" else
                           10 * 2**20 if k == "host_write_bytes" else 0)
                   for k, v in s["after"].items()})
            for s in r["steps"]]
        results.append(r)
    text = report.write(results, run.prepare.SCALES["tiny"],
                        tmp_path).read_text()
    # The same claims as without round 0 (test_report_shows_both_baselines).
    assert "| writes (flash programs, TLC+SLC) | -19.30% | -50.0% | -45.0% |" \
        in text
    assert "| 0 | cold-fill | 9.0 |" in text
    assert "cold data set of 50%" in text


def test_report_only_refuses_runs_of_other_cold_percents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Runs made with different --cold-percent are not one report."""
    from workload import prepare
    monkeypatch.setattr(prepare, "WORK", tmp_path)
    for name, cold in (("base", 0), ("procache", 50)):
        out = tmp_path / "out" / "tiny" / name
        out.mkdir(parents=True)
        r = fake_run(name, 1, 1, 0)
        r.update(rounds=3, cold_percent=cold)
        (out / "stats.json").write_text(json.dumps(r))

    _forbid_report(monkeypatch)
    assert run.main(["--scale", "tiny", "--settings", "base,procache",
                     "--report-only"]) == 1
    assert "cold percents [0, 50]" in capsys.readouterr().err
    assert run.main(["--scale", "tiny", "--settings", "procache",
                     "--cold-percent", "40", "--report-only"]) == 1
    assert "cold percents [50]" in capsys.readouterr().err


def test_tlc_gc_bullet_gives_the_replays_relocations(tmp_path: Path) -> None:
    """The TLC GC reading names the VM runs' relocations and the replay's
    on the VM's devices (not another cache size's)."""
    results = [fake_run("nocache", 1100, 0, 0),
               fake_run("base", 400, 600, 0),
               fake_run("procache", 520, 30, 0)]
    results.append(dict(fake_run("procache-discard", 520, 30, 0),
                        mount="discard"))
    results[0]["keys"] = ["blocks_per_chip=56", "slc_blocks_per_chip=0"]
    for r in results[1:]:
        r["keys"] = ["blocks_per_chip=56", "slc_blocks_per_chip=8"]
    rows = [replay_row("baseline", "nocache", 0, 1000, 0, 10, 400.0),
            replay_row("cache size", "base", 4, 1, 1, 1, 1.0),
            replay_row("cache size", "base", 8, 900, 600, 20, 800.0),
            replay_row("cache size", "procache", 8, 1100, 100, 12, 300.0)]
    rows[1]["gc_relocated"] = 99
    rows[3]["gc_relocated"] = 5
    for r in rows:
        r.update(write_hit_ratio=0.0, destage_foreground=0,
                 destage_background=0)
    text = report.write(results, run.prepare.SCALES["tiny"], tmp_path,
                        replay_rows=rows).read_text()
    assert ("`nocache` 0, `base` 0, `procache` 0, `procache-discard` 0. "
            "Where it is 0 under `nodiscard`") in text
    assert "; `procache-discard` relocated 0: ext4 trims" in text
    assert ("system, smaller than the no-cache device's): `nocache` 7, "
            "`base` 7, `procache` 5.") in text


def test_fig89_pieces_of_a_request_log() -> None:
    """A log's writes as (bytes, pages covered) on 2 KiB pages, reads
    and flushes left out, and classed by c as bench/procache_figs.py
    classes its traces: a request of exactly c is small by default
    (size <= c may enter) and large when size >= c bypasses."""
    log = ["0 W 0 1024 0 ab", "1 R 0 4096 0", "2 F 0 0 0",
           "3 W 1024 2048 0", "4 W 8192 8192 0"]
    pieces = replay.log_write_pieces(log)
    assert pieces == [(1024, 1), (2048, 2), (8192, 4)]
    classes = procache_hits.page_classes(pieces, 8192, inclusive=False)
    assert classes == {"small_pages": 3, "large_pages": 4}
    assert procache_hits.page_classes(pieces, 1024, inclusive=False) == {
        "small_pages": 0, "large_pages": 7}
    assert procache_hits.page_classes(pieces, 8192) == {
        "small_pages": 7, "large_pages": 0}
    assert procache_hits.page_classes(pieces, 1024) == {
        "small_pages": 1, "large_pages": 6}


def test_fig89_settings_cover_the_axes_once(tmp_path: Path) -> None:
    """c in {1, 4, 8, 16} KiB at p = 0.1, the p sweep at c = 8 KiB and
    the cache at 1, 2 and 4 times the scale's with BASE beside, each
    setting once; a larger cache leaves the logical space as it is."""
    rows = replay.fig89_settings()
    pc = [r for r in rows if r[1] == "procache"]
    assert len(set(r[1:] for r in rows)) == len(rows)
    assert {r[2] for r in pc if r[0] == "c"} == {1024, 4096, 8192, 16384}
    assert {r[3] for r in pc if r[0] == "p"} | {100_000} == set(
        replay.FIG89_P_PPM)
    assert {r[4] for r in rows if r[1] == "base"} == {1, 2, 4}
    logical, cache = set(), []
    for times in replay.FIG89_CACHE_TIMES:
        st = replay.replay(one_write(tmp_path), replay.fig89_keys(
            "tiny", "procache", 8192, 100_000, times))
        assert st["config"]["slc_blocks_per_chip"] == 8 * times
        logical.add(st["logical_capacity_bytes"])
        cache.append(st["cache_capacity_pages"])
    assert len(logical) == 1 and cache == sorted(cache) and cache[0] < cache[2]


def test_fig89_hit_ratios_split_small_and_large(tmp_path: Path) -> None:
    """At p = 1 a 2 KiB page rewritten 10 times misses once; a 16 KiB
    range (8 pages) rewritten 10 times is never admitted with c = 8 KiB:
    small 9/10, all 9/90, and the large pages' size bypasses are the
    counters' identity."""
    lines = [f"{i * 2000000} W 0 2048 0" for i in range(10)]
    lines += [f"{(10 + i) * 2000000} W 1048576 16384 0" for i in range(10)]
    log = tmp_path / "fig89.log"
    log.write_text("\n".join(lines) + "\n")
    classes = procache_hits.page_classes(replay.log_write_pieces(lines), 8192)
    st = replay.replay(log, replay.fig89_keys("tiny", "procache", 8192,
                                              1_000_000, 1),
                       flags=("--belady",))
    assert st["cache_bypass_size_pages"] == classes["large_pages"] == 80
    r = procache_hits.hit_ratios(st, classes)
    assert r["hit_small"] == pytest.approx(9 / 10)
    assert r["hit_all"] == pytest.approx(9 / 90)
    assert r["offline_all"] >= r["hit_all"]


def fig89_row(axis: str, policy: str, c: int, p: int, times: int,
              hit_small: float | None, hit_all: float,
              offline: float) -> dict[str, object]:
    return {"axis": axis, "policy": policy, "c_bytes": c, "p_ppm": p,
            "cache_times": times, "warmup": 6, "cache_pages": 1000 * times,
            "cache_mib": 2.0 * times, "small_pages": c // 1024 - 1,
            "large_pages": 100, "hit_small": hit_small, "hit_all": hit_all,
            "offline_all": offline}


def test_fig89_report_section(tmp_path: Path) -> None:
    """The section's table has every setting (the shared one under each
    axis it belongs to) and its reading the rows' own numbers."""
    rows = []
    for axis, policy, c, p, times in replay.fig89_settings():
        small = None if policy == "base" else 0.01 * (c // 1024) + p / 1e7
        rows.append(fig89_row(axis, policy, c, p, times, small,
                              0.001 * times, 0.1 * times))
    text = "\n".join(report.fig89_section(rows, "base", tmp_path))
    table = [line for line in text.splitlines()
             if line.startswith(("| c |", "| p |", "| cache size |"))]
    assert len(table) == 4 + 5 + 3 + 3
    assert "| c | procache | 8 | 0.1 | 1000 (2.0) | 7 | 0.090 |" in text
    assert "after 6 warm-up passes (the paper's warmup-6)" in text
    assert "7 of 107 page writes (6.5%" in text
    assert ("1 KiB 0.020, 4 KiB 0.050, 8 KiB 0.090, 16 KiB 0.170) a c at"
            " or below the smallest request admits nothing") in text
    assert "rises with p" in text and "stays at 0.090" in text
    assert "(0.100, 0.200, 0.400)" in text
    assert report.fig89_section([], "base", tmp_path) == []


def test_hot_share_counts_the_hottest_small_write_volume() -> None:
    """The 24.6% figure's measure: 100 requests; the small writes (<= 8
    KiB) are 40 writes of 1 KiB to one block and 10 of 1 KiB to ten
    others, so 50 KiB of small write volume whose hottest 1.5% (1 block)
    issues 40 of the 100 requests; a 16 KiB write is not small, and with
    size >= c bypassing an 8 KiB write is not either."""
    from workload import procache_replays as pr
    reqs = [("W", 0, 1024)] * 40
    reqs += [("W", 1024 * (10 + i), 1024) for i in range(10)]
    reqs += [("W", 1 << 20, 16384)] * 10 + [("R", 0, 4096)] * 40
    h = pr.hot_share(reqs, 8192, True)
    assert (h["requests"], h["writes"], h["small_writes"]) == (100, 60, 50)
    assert h["volume_bytes"] == 50 * 1024 and h["hot_blocks"] == 1
    assert h["share_of_total"] == pytest.approx(0.40)
    assert h["share_of_small"] == pytest.approx(0.80)
    # 24.6 requests need the hottest block alone: 1 KiB of 50 KiB.
    assert h["volume_for_paper_share"] == pytest.approx(1 / 50)
    foot = pr.hot_share(reqs, 8192, True, "footprint")
    assert foot["volume_bytes"] == 11 * 1024
    eight = [("W", 0, 8192), ("R", 0, 8192)]
    assert pr.hot_share(eight, 8192, True)["small_writes"] == 1
    assert pr.hot_share(eight, 8192, False)["small_writes"] == 0


def test_step_write_ns_sums_each_steps_writes(tmp_path: Path) -> None:
    """Writes are summed (completion less arrival) into the step whose
    time range holds their arrival, by step name over the rounds; a
    write outside every step is refused."""
    from workload import procache_replays as pr
    steps = [("r1-kernel-copy", 0, 100), ("r1-remove", 1000, 1100),
             ("r2-kernel-copy", 2000, 2100)]
    done = tmp_path / "done.log"
    done.write_text("10 W 0 4096 60\n20 R 0 4096 500\n1050 W 0 4096 1090\n"
                    "2000 W 0 4096 2005\n")
    assert pr.step_write_ns(done, steps) == {"kernel-copy": 55,
                                             "remove": 40}
    done.write_text("500 W 0 4096 600\n")
    with pytest.raises(SystemExit):
        pr.step_write_ns(done, steps)
