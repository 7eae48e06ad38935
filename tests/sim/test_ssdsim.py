"""ssdsim: trace replay through the userspace build of the firmware core.

Runs the ASan build (build/asan/bin/ssdsim) so memory errors on real traces
fail the test, and checks counters against hand-computed expectations.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from asan_ssdsim import SMALL, SSDSIM, TRACES, ssdsim
import ssdsim as sim
from ssdtools.paths import CONFIGS

# TRACES: copies of the traces the project replays, with their sources
# named in tests/data/README.md: the repository stands alone.
# 4 chips x 16 blocks x 16 pages of 4 KiB = 4 MiB of flash: TPC-C's writes
# wrap onto it many times, so GC must run.
TINY = ["pages_per_block=16", "blocks_per_chip=16", "chips=4", "channels=2",
        "op_percent=25"]


def refused(*args: str) -> str:
    """Run ssdsim expecting a clean refusal: status 1 and no sanitizer
    report (a leak on an error path exits with 1 too); returns stderr."""
    proc = ssdsim(*args, check=False)
    assert proc.returncode == 1, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    return proc.stderr


def stats(*args: str) -> dict[str, float]:
    return json.loads(ssdsim("--json", *args).stdout)


def test_tpcc_trace_runs_gc_and_is_deterministic() -> None:
    trace = str(TRACES / "mqsim-tpcc-small.trace")
    first = stats("--check", "--config", str(SMALL), *TINY, trace)
    again = stats("--check", "--config", str(SMALL), *TINY, trace)
    assert first == again
    assert first["gc_victim_blocks"] > 0
    assert first["waf"] > 1.0
    assert first["flash_program_pages"] == (first["flash_program_host_pages"]
                                            + first["flash_program_gc_pages"])
    assert first["erase_count_total"] == first["flash_erase_blocks"]
    assert first["erase_count_max"] >= first["erase_count_min"]
    # The erase-count histogram (derived at read time): every block in one
    # of 16 buckets of ceil((max + 1) / 16) erases; GC wore the device, so
    # the blocks are not all in bucket 0 and the top count's bucket is used.
    width = first["erase_hist_bucket_width"]
    hist = [first[f"erase_hist_{i}"] for i in range(16)]
    assert width == (first["erase_count_max"] + 16) // 16
    assert sum(hist) == first["total_blocks"]
    assert hist[0] < first["total_blocks"]
    assert hist[first["erase_count_max"] // width] > 0
    assert not any(hist[first["erase_count_max"] // width + 1:])


@pytest.mark.parametrize("name", ["fiu-homes-sample.blkparse",
                                  "fiu-mail-sample.blkparse"])
def test_fiu_traces_replay(name: str) -> None:
    out = stats("--check", "--config", str(SMALL), str(TRACES / name))
    assert out["host_write_bytes"] > 0
    assert out["virtual_time_ns"] > 0


# Timing spelled out, so the hand computation below does not depend on the
# preset: one 4 KiB transfer at 400 MB/s is 10240 ns.
HAND_TIMING = ["logical_block_bytes=512", "controller_ns=2000",
               "channel_mb_per_s=400", "read_ns=50000", "program_ns=600000",
               "cmd_queue_depth=64", "chips=8", "channels=4"]


def test_hand_computed_counters_and_times(tmp_path: Path) -> None:
    # mqsim format: time_ns device lba_sectors size_sectors type(0=W, 1=R)
    trace = tmp_path / "t.trace"
    trace.write_text("\n".join([
        "1000 0 0 8 0",      # write page 0
        "2000 0 0 8 0",      # overwrite page 0
        "3000 0 8 16 0",     # write pages 1-2
        "4000 0 0 24 1",     # read pages 0-2
        "5000 0 100 1 0",    # 512 B into page 12: unmapped, no read first
        "6000 0 101 1 0",    # 512 B more of page 12: read-modify-write
        "7000 0 102 1 0",    # and more: read-modify-write again
        "8000 0 0 8 1",      # read page 0
    ]) + "\n")
    done = tmp_path / "done.log"
    # Without the FLUSH that ends a replay: its times are the trace's own.
    out = stats("--config", str(SMALL), *HAND_TIMING, "--completions",
                str(done), "--no-final-flush", str(trace))
    assert out["host_write_pages"] == 7
    assert out["valid_pages"] == 4
    assert out["host_read_pages"] == 3 + 1
    assert out["host_rmw_pages"] == 2
    assert out["flash_read_host_pages"] == 3 + 1 + 1 + 1
    assert out["host_write_bytes"] == (8 + 8 + 16 + 1 + 1 + 1) * 512
    assert out["data_bytes"] == 4 * 4096
    # The controller takes 2 us per command, FIFO; pages go to the chip
    # free soonest, ties round robin: chips 0, 1, 2, ... (chip c on channel
    # c % 4).  A chip does one thing at a time; a channel transfer takes
    # the first gap long enough at or after the time it is ready.
    #   1: ops at 2000; chip 0: transfer to 12240, program to 612240
    #   2: ops at 4000; chip 1: 14240, 614240
    #   3: ops at 6000; chips 2, 3 in parallel: 616240
    #   4: ops at 8000; read page 0 on chip 1 (free at 614240): sensed
    #      664240, channel 1 to 674480; pages 1, 2 on chips 2, 3: 676480
    #   5: ops at 10000; chip 4, on channel 0 busy until 12240: 622480
    #   6: ops at 12000; read page 12 on chip 4 (free at 622480): 682720;
    #      program on chip 5: channel 1 free from 674480, crosses at 682720
    #      to 692960, programmed at 1292960
    #   7: ops at 14000; read page 12 on chip 5 (free at 1292960): sensed
    #      1342960, channel 1 to 1353200; program on chip 6 (all chips are
    #      free by then, the cursor is at 6): 1353200 + 10240 + 600000
    #   8: ops at 16000; read page 0 on chip 1 (free at 674480): sensed
    #      724480; channel 1 has [682720, 692960) and [1342960, 1353200)
    #      booked, the gap between holds it: 734720.  (With one free time
    #      per channel it waited for 1353200 and completed at 1363440.)
    # Commands 1-6 give the same times either way: none of their transfers
    # was ready before a transfer already booked on its channel.
    expected = [612240, 614240, 616240, 676480, 622480, 1292960, 1963440,
                734720]
    got = [int(line.split()[4]) for line in done.read_text().splitlines()]
    assert got == expected
    assert out["virtual_time_ns"] == 1963440
    assert out["commands"] == 8
    arrivals = [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000]
    latencies = [e - a for e, a in zip(expected, arrivals)]
    assert out["command_latency_ns_total"] == sum(latencies)
    assert out["read_commands"] == 2
    assert out["read_latency_ns_total"] == latencies[3] + latencies[7]
    assert out["write_commands"] == 6
    assert out["write_latency_ns_total"] == (sum(latencies) - latencies[3]
                                             - latencies[7])
    assert out["read_latency_mean_us"] == pytest.approx(
        (latencies[3] + latencies[7]) / 2 / 1000, abs=1e-3)
    # ssdsim's own distributions, nearest-rank percentiles.
    reads = sorted([latencies[3], latencies[7]])
    writes = sorted(lat for i, lat in enumerate(latencies) if i not in (3, 7))
    assert out["latency"]["read"] == {
        "count": 2, "mean_ns": pytest.approx(sum(reads) / 2, abs=0.1),
        "p50_ns": reads[0], "p99_ns": reads[1], "max_ns": reads[1]}
    assert out["latency"]["write"] == {
        "count": 6, "mean_ns": pytest.approx(sum(writes) / 6, abs=0.1),
        "p50_ns": writes[2], "p99_ns": writes[5], "max_ns": writes[5]}
    assert out["trace"] == {"path": str(trace), "format": "mqsim",
                            "requests": 8, "span_bytes": (102 + 1) * 512,
                            "disks": {"0": 8}, "disk": None}
    assert out["remap"] == {"mode": "none"}
    assert out["final_flush"] is False
    assert out["config"]["chips"] == 8
    assert out["config"]["gc_policy"] == "greedy"
    assert out["wrapped_requests"] == 0


@pytest.mark.parametrize("read_priority", [0, 1])
def test_hand_computed_read_priority(tmp_path: Path,
                                     read_priority: int) -> None:
    """One chip: reads wait for the programs (0) or overtake them (1)."""
    trace = tmp_path / "t.trace"
    trace.write_text("\n".join([
        "1000 0 0 8 0",      # write page 0
        "2000 0 8 8 0",      # write page 1
        "3000 0 0 8 1",      # read page 0
        "4000 0 16 8 0",     # write page 2
        "5000 0 8 8 1",      # read page 1
    ]) + "\n")
    done = tmp_path / "done.log"
    out = stats("--config", str(SMALL), *HAND_TIMING, "chips=1",
                "channels=1", f"read_priority={read_priority}",
                "--completions", str(done), str(trace))
    # Ops at 2000, 4000, ... 10000.  A program is 10240 + 600000 = 610240
    # of chip time, a read 50000 + 10240 = 60240.
    #   1: transfer at 2000, programmed at 612240
    #   2: the chip is free at 612240: 1222480
    #   3: FIFO: sensed from 1222480, 1282720.  Priority: it suspends
    #      program 1 and senses from 6000; the channel is free from 12240:
    #      66240.  The chip owes 60240 more: free at 1282720.
    #   4: the chip is free at 1282720 either way: 1892960
    #   5: FIFO: 1953200.  Priority: senses after read 3, from 66240:
    #      126480; the chip is free at 1953200.
    if read_priority:
        expected = [612240, 1222480, 66240, 1892960, 126480]
    else:
        expected = [612240, 1222480, 1282720, 1892960, 1953200]
    got = [int(line.split()[4]) for line in done.read_text().splitlines()]
    assert got == expected
    # The same chip time either way: 3 programs and 2 reads.
    assert out["chip_busy_ns_total"] == 3 * 610240 + 2 * 60240
    assert out["write_latency_ns_total"] == (612240 + 1222480 - 1000
                                             + 1892960 - 3000)
    assert out["read_latency_ns_total"] == (expected[2] - 2000
                                            + expected[4] - 4000)


def test_request_log_replays_to_itself(tmp_path: Path) -> None:
    """A completions file is a trace: replaying it gives the same times."""
    first, second = tmp_path / "first.log", tmp_path / "second.log"
    trace = str(TRACES / "mqsim-tpcc-small.trace")
    a = stats("--config", str(SMALL), *TINY, "--completions", str(first),
              trace)
    b = stats("--config", str(SMALL), *TINY, "--completions", str(second),
              "--format", "ssdemu", str(first))
    assert first.read_text() == second.read_text()
    # The log holds the requests as placed: they no longer wrap.  (The
    # FLUSH that ends the replay is a command, not a trace request.)
    assert a["wrapped_requests"] == a["commands"] - 1
    assert b["wrapped_requests"] == 0
    assert a["trace"]["format"] == "mqsim" and b["trace"]["format"] == "ssdemu"
    for key in ("wrapped_requests", "trace"):
        del a[key], b[key]
    assert a == b


# blkparse's default output; only the D (issue) events are requests.  Read
# from a pipe, blkparse prints CPUs in batches: the last D event is earlier.
BLKPARSE_SAMPLE = """\
  8,0    1        1     0.000000000   512  Q   W 2048 + 8 [fio]
  8,0    1        2     0.000001200   512  G   W 2048 + 8 [fio]
  8,0    1        3     0.000003000   512  D   W 2048 + 8 [fio]
  8,0    1        4     0.000610000     0  C   W 2048 + 8 [0]
  8,0    0        5     0.001000000   512  D  RA 2048 + 8 [fio]
  8,0    0        6     0.002000000   512  D  FN [kworker/0:1H]
  8,0    0        7     0.003000000   512  D  DS 4096 + 64 [fio]
  8,0    0        8     0.004000000   512  D WFS 0 + 16 [jbd2/sda1-8]
  8,0    0        9     0.005000000   512  m   N some driver message
  8,0    1       10     0.002500000   513  D   W 8192 + 8 [fio]
CPU0 (8,0):
 Reads Queued:       0,     0KiB\t Writes Queued:       1,     4KiB
Total (8,0):
Throughput (R/W): 0KiB/s / 0KiB/s
Events (8,0): 10 entries
Skips: 0 forward (0 -   0.0%)
"""


def test_blkparse_text_replays_issue_events(tmp_path: Path) -> None:
    trace = tmp_path / "bt.txt"
    trace.write_text(BLKPARSE_SAMPLE)
    done = tmp_path / "done.log"
    out = stats("--config", str(SMALL), "--completions", str(done),
                str(trace))
    # Six D events, and the FLUSH that ends the replay (not logged).
    assert out["commands"] == 7
    assert out["host_write_bytes"] == 8 * 512 + 16 * 512 + 8 * 512
    assert out["host_read_bytes"] == 8 * 512
    assert out["host_trim_bytes"] == 64 * 512
    assert out["host_flush_count"] == 2
    # Arrival times are relative to the first D event, in nanoseconds.
    requests = [line.split()[:4] for line in done.read_text().splitlines()]
    assert requests == [["0", "W", "1048576", "4096"],
                        ["997000", "R", "1048576", "4096"],
                        ["1997000", "F", "0", "0"],
                        ["2497000", "W", "4194304", "4096"],
                        ["2997000", "T", "2097152", "32768"],
                        ["3997000", "W", "0", "8192"]]


def test_blkparse_refuses_a_second_device_and_bad_events(
        tmp_path: Path) -> None:
    trace = tmp_path / "bt.txt"
    trace.write_text(BLKPARSE_SAMPLE + "  8,16   0   10   0.006000000   512"
                     "  D   W 0 + 8 [fio]\n")
    assert "bt.txt:17: a second device 8,16" in refused(
        "--config", str(SMALL), str(trace))
    trace.write_text("  8,0 0 1 0.000000000 512 D X 0 + 8 [fio]\n")
    assert "bt.txt:1: not a blkparse" in refused("--config", str(SMALL),
                                                 str(trace))


def test_bad_input_is_refused_with_a_message(tmp_path: Path) -> None:
    trace = tmp_path / "t.trace"
    trace.write_text("1000 0 0 8 0\n1001 0 zero 8 0\n")
    assert "t.trace:2" in refused("--config", str(SMALL), str(trace))
    assert "chips=0" in refused("--config", str(SMALL), "chips=0", str(trace))
    assert "op_percent" in refused("--config", str(SMALL), "op_percent=1",
                                   str(trace))
    missing = tmp_path / "missing.trace"
    assert "missing.trace: No such file" in refused("--config", str(SMALL),
                                                    str(missing))
    unwritable = tmp_path / "no-such-dir" / "done.log"
    assert "done.log: No such file" in refused(
        "--config", str(SMALL), "--completions", str(unwritable), str(trace))


def config_keys() -> list[str]:
    return list(sim.list_keys(SSDSIM))


@pytest.mark.parametrize("preset", sorted(p.name for p in
                                          CONFIGS.glob("*.conf")))
def test_presets_are_valid_and_commented(preset: str) -> None:
    path = CONFIGS / preset
    keys = set(config_keys())
    lines = [line for line in path.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    for line in lines:
        key = line.split("=")[0].strip()
        assert key in keys, f"{preset}: unknown key {key}"
        assert "#" in line, f"{preset}: '{key}' has no comment"
    assert "source" in path.read_text().lower() or preset == "small-test.conf"
    out = stats("--check", "--config", str(path),
                str(TRACES / "fiu-mail-sample.blkparse"))
    assert out["logical_capacity_bytes"] > 0


def test_small_test_sets_every_key() -> None:
    text = SMALL.read_text()
    set_keys = {line.split("=")[0].strip() for line in text.splitlines()
                if "=" in line and not line.startswith("#")}
    assert set_keys == set(config_keys())


def test_straddling_requests_cover_every_block(tmp_path: Path) -> None:
    """A request is widened to the logical blocks it touches: 1 KiB at
    byte 3584 straddles blocks 0 and 1 of 4 KiB, so both are written."""
    trace = tmp_path / "t.trace"
    trace.write_text("1000 0 7 2 0\n2000 0 9 1 0\n")
    done = tmp_path / "done.log"
    out = stats("--config", str(SMALL), "--completions", str(done),
                str(trace))
    assert out["host_write_pages"] == 3
    assert out["valid_pages"] == 2
    assert [line.split()[1:4] for line in done.read_text().splitlines()] \
        == [["W", "0", "8192"], ["W", "4096", "4096"]]


def test_tpcc_with_512_byte_blocks_keeps_straddled_pages() -> None:
    """TPC-C's 512-byte-aligned requests straddle 4 KiB pages: with
    512-byte logical blocks every touched page is written, and partial
    pages are read-modify-written (WAF above 1)."""
    trace = str(TRACES / "mqsim-tpcc-small.trace")
    small = stats("--config", str(SMALL), "logical_block_bytes=512", trace)
    whole = stats("--config", str(SMALL), trace)
    assert small["host_rmw_pages"] > 0
    assert small["waf"] > 1.2
    # 4 KiB blocks cover at least the pages 512-byte blocks touch.
    assert whole["host_write_pages"] >= small["host_write_pages"]


def test_wrapped_and_zero_length_requests_are_counted(tmp_path: Path) -> None:
    capacity = stats("--config", str(SMALL), str(TRACES /
                     "fiu-mail-sample.blkparse"))["logical_capacity_bytes"]
    trace = tmp_path / "t.trace"
    beyond = capacity // 512 + 8    # one page past the end: wraps to page 1
    trace.write_text(f"1000 0 0 8 0\n2000 0 16 0 0\n3000 0 {beyond} 8 0\n"
                     "4000 0 24 0 1\n")
    done = tmp_path / "done.log"
    proc = ssdsim("--json", "--config", str(SMALL), "--completions",
                  str(done), str(trace))
    out = json.loads(proc.stdout)
    assert "t.trace:2: zero-length request skipped" in proc.stderr
    assert out["zero_length_requests"] == 2
    assert out["wrapped_requests"] == 1
    assert out["commands"] == 2 + 1     # and the FLUSH that ends the replay
    assert [line.split()[2] for line in done.read_text().splitlines()] \
        == ["0", "4096"]


def test_unrecognised_format_is_not_blamed_on_fiu(tmp_path: Path) -> None:
    trace = tmp_path / "t.txt"
    trace.write_text("# a comment\nthis is not a trace\n")
    err = refused("--config", str(SMALL), str(trace))
    assert "t.txt:2: trace format not recognised" in err
    assert "--format" in err
    assert "fiu" not in err.split("not recognised")[0]
    # A line that breaks a chosen format still names that format.
    assert "t.txt:2: not a mqsim trace line" in refused(
        "--config", str(SMALL), "--format", "mqsim", str(trace))


def test_trims_cover_only_whole_blocks(tmp_path: Path) -> None:
    """A TRIM is narrowed to the logical blocks it covers whole: it never
    discards data it did not name."""
    trace = tmp_path / "t.log"
    # ssdemu request log format: arrival op offset length completion.
    trace.write_text("0 W 0 16384 0\n1000 T 512 7680 0\n2000 T 512 2048 0\n")
    done = tmp_path / "done.log"
    out = stats("--config", str(SMALL), "--completions", str(done),
                str(trace))
    # [512, 8192) covers block 1 whole; [512, 2560) covers none.
    assert out["host_trim_pages"] == 1
    assert out["valid_pages"] == 3
    assert out["zero_length_requests"] == 1
    assert [line.split()[1:4] for line in done.read_text().splitlines()] \
        == [["W", "0", "16384"], ["T", "4096", "4096"]]
