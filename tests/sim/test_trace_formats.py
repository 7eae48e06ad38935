"""The trace readers (tools/trace/trace_reader.c, docs/trace-formats.md):
every format read from the samples in tests/data and checked against an
independent decoding here, bad input refused with file and line (or
record), and ssdsim and cachesim reading every format.

trace_dump (the ASan build) prints the records the simulators see:
"format NAME", then "arrival_ns op offset length [disk=D] [hashes]".
"""
from __future__ import annotations

import csv
import json
import struct
import subprocess
from pathlib import Path

import pytest

import ssdsim as sim
from asan_ssdsim import SMALL, TRACES, ssdsim
from lcs_reference import libcachesim
from ssdtools import cachesim as cs
from ssdtools.paths import BUILD

DUMP = BUILD / "asan" / "bin" / "trace_dump"
SCSI_OPS = {0x28: "R", 0x2A: "W"}
Record = tuple[int, str, int, int]


def dump(*args: str, check: bool = True,
         stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """trace_dump with args; with check, it must exit 0."""
    if not DUMP.exists():
        pytest.fail(f"{DUMP} missing: run 'make unit'")
    proc = subprocess.run([str(DUMP), *args], capture_output=True,
                          input=stdin.decode("latin-1") if stdin else None,
                          text=True, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    return proc


def records(*args: str) -> tuple[str, list[list[str]]]:
    """The format named and each record's fields, as trace_dump prints."""
    lines = dump(*args).stdout.splitlines()
    if not lines:
        return "", []
    assert lines[0].startswith("format ")
    return lines[0].split()[1], [line.split() for line in lines[1:]]


def plain(fields: list[list[str]]) -> list[Record]:
    return [(int(f[0]), f[1], int(f[2]), int(f[3])) for f in fields]


def refused(*args: str) -> str:
    proc = dump(*args, check=False)
    assert proc.returncode == 1, proc.stdout
    return proc.stderr


def relative(recs: list[Record]) -> list[Record]:
    first = recs[0][0]
    return [(t - first, op, off, n) for t, op, off, n in recs]


CP = "cloudphysics-sample"


def vscsi_expected() -> list[Record]:
    """Version 1 records {sn, len, nSG, cmd, ver, lbn, ts_us} decoded."""
    data = (TRACES / f"{CP}.vscsi").read_bytes()
    out = []
    for at in range(0, len(data), 32):
        _, length, _, cmd, ver, lbn, ts_us = struct.unpack_from(
            "<IIIHHQQ", data, at)
        assert ver >> 8 == 1
        out.append((ts_us * 1000, SCSI_OPS[cmd], lbn * 512, length))
    return relative(out)


def test_cloudphysics_sample_reads_alike_in_four_formats() -> None:
    """libCacheSim ships one trace as vscsi, csv, oracleGeneral and txt:
    each reader gives its records as the format defines them, and the
    same block addresses in all four."""
    fmt, vscsi = records(str(TRACES / f"{CP}.vscsi"))
    assert fmt == "vscsi" and plain(vscsi) == vscsi_expected()
    assert len(vscsi) == 200

    fmt, lcs_csv = records(str(TRACES / f"{CP}.csv"))
    assert fmt == "lcs-csv"
    with open(TRACES / f"{CP}.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert plain(lcs_csv) == relative(
        [(int(r["time"]) * 10**9, SCSI_OPS[int(r["op"], 16)],
          int(r["lbn"]) * 512, int(r["size"])) for r in rows])
    # The csv is the vscsi trace at whole seconds.
    assert [r[1:] for r in plain(lcs_csv)] == [r[1:] for r in
                                               vscsi_expected()]

    fmt, oracle = records(str(TRACES / f"{CP}.oracleGeneral.bin"))
    assert fmt == "oracle"
    data = (TRACES / f"{CP}.oracleGeneral.bin").read_bytes()
    expected = []
    for at in range(0, len(data), 24):
        t, obj_id, size, _ = struct.unpack_from("<IQIq", data, at)
        expected.append((t * 10**9, "R", obj_id * 512, size))
    assert plain(oracle) == relative(expected)

    fmt, txt = records(str(TRACES / f"{CP}.txt"))
    assert fmt == "lcs-txt"
    ids = [int(x) for x in (TRACES / f"{CP}.txt").read_text().split()]
    assert plain(txt) == [(0, "R", i * 512, 512) for i in ids]

    offsets = [r[2] for r in plain(vscsi)]
    for other in (lcs_csv, oracle, txt):
        assert [r[2] for r in plain(other)] == offsets


def test_libcachesim_reads_the_samples_alike() -> None:
    """libCacheSim's own readers (its Python bindings) give the object ids
    (our offsets / 512), sizes and oracleGeneral's times we read."""
    lcs = libcachesim()

    def theirs(name: str, kind: object, params: object = None) -> list:
        path = str(TRACES / name)
        reader = (lcs.TraceReader(path, kind, params) if params
                  else lcs.TraceReader(path, kind))
        return [(r.clock_time, r.obj_id, r.obj_size) for r in reader]

    def ours(name: str) -> list[Record]:
        return plain(records(str(TRACES / name))[1])

    for name, kind in ((f"{CP}.oracleGeneral.bin",
                        lcs.TraceType.ORACLE_GENERAL_TRACE),
                       (f"{CP}.oracleGeneral.bin.zst",
                        lcs.TraceType.ORACLE_GENERAL_TRACE),
                       (f"{CP}.vscsi", lcs.TraceType.VSCSI_TRACE)):
        got, want = ours(name), theirs(name, kind)
        assert [(r[2] // 512, r[3]) for r in got] == \
            [(w[1], w[2]) for w in want], name
        if kind == lcs.TraceType.ORACLE_GENERAL_TRACE:
            assert [r[0] for r in got] == \
                [(w[0] - want[0][0]) * 10**9 for w in want]
    params = lcs.ReaderInitParam()
    params.time_field, params.obj_id_field, params.obj_size_field = 2, 5, 4
    params.has_header = params.has_header_set = True
    params.obj_id_is_num = params.obj_id_is_num_set = True
    params.delimiter = ","
    want = theirs(f"{CP}.csv", lcs.TraceType.CSV_TRACE, params)
    assert [(r[2] // 512, r[3]) for r in ours(f"{CP}.csv")] == \
        [(w[1], w[2]) for w in want]
    params = lcs.ReaderInitParam()
    params.obj_id_is_num = params.obj_id_is_num_set = True
    want = theirs(f"{CP}.txt", lcs.TraceType.PLAIN_TXT_TRACE, params)
    assert [r[2] // 512 for r in ours(f"{CP}.txt")] == [w[1] for w in want]


def test_zstd_traces_read_as_their_content() -> None:
    zst = TRACES / f"{CP}.oracleGeneral.bin.zst"
    assert zst.read_bytes()[:4] == bytes([0x28, 0xB5, 0x2F, 0xFD])
    base = records(str(TRACES / f"{CP}.oracleGeneral.bin"))
    assert records(str(zst)) == base
    assert records("--format", "oracle", str(zst)) == base
    # From a pipe: read() in chunks, the magic seen in the first one.
    proc = subprocess.run(f"cat {zst} | {DUMP} /dev/stdin", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1:] == [" ".join(r) for r in base[1]]
    # Progress counts the compressed bytes of the file.
    count = dump("--count", str(zst)).stdout.split()
    size = zst.stat().st_size
    assert count[count.index("read") + 1:count.index("read") + 4] == [
        str(size), "of", str(size)]


def test_a_pipe_reads_like_the_mapped_file() -> None:
    trace = TRACES / "mqsim-tpcc-small.trace"
    proc = subprocess.run(f"cat {trace} | {DUMP} /dev/stdin", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == dump(str(trace)).stdout
    # Progress: the whole file of a mapped one; a pipe's size is unknown.
    size = trace.stat().st_size
    assert f" read {size} of {size} " in dump("--count", str(trace)).stdout
    proc = subprocess.run(f"cat {trace} | {DUMP} --count /dev/stdin",
                          shell=True, capture_output=True, text=True,
                          timeout=60)
    assert f" read {size} of 0 " in proc.stdout


def test_vscsi_version_2(tmp_path: Path) -> None:
    """Version 2 records {cmd, ver, sn, len, nSG, lbn, ts_us, rt}: told
    apart from version 1 by the version byte, as libCacheSim tells them."""
    trace = tmp_path / "v2.vscsi"
    trace.write_bytes(
        struct.pack("<HHIIIQQQ", 0x2A, 0x200, 1, 8192, 1, 100, 5000, 7)
        + struct.pack("<HHIIIQQQ", 0x28, 0x200, 2, 4096, 1, 7, 5250, 7)
        + struct.pack("<HHIIIQQQ", 0x35, 0x200, 3, 0, 0, 0, 6000, 7))
    fmt, recs = records(str(trace))
    assert fmt == "vscsi"
    assert recs == [["0", "W", "51200", "8192"],
                    ["250000", "R", "3584", "4096"],
                    ["1000000", "F", "0", "0"]]
    assert records("--format", "vscsi", str(trace))[1] == recs
    # A record of another version after the first two is refused.
    data = bytearray(trace.read_bytes())
    data[80 + 3] = 1
    trace.write_bytes(bytes(data))
    assert "record 3: not a vscsi version 2 record" in refused(str(trace))


def test_msr_sample() -> None:
    fmt, recs = records(str(TRACES / "msr-sample.csv"))
    assert fmt == "msr"
    # Timestamps are 100 ns ticks; offsets and sizes bytes.
    # Disks are numbered per host: named HOST_N, as MSR's volumes are.
    assert recs == [
        ["0", "R", "3338260480", "4096", "disk=hm_1"],
        ["1332052600", "W", "3374985216", "8192", "disk=hm_1"],
        ["2332061600", "W", "1054752768", "4096", "disk=hm_0"],
        ["3332061600", "R", "3338264576", "65536", "disk=hm_1"],
        ["4332061600", "R", "1054752768", "4096", "disk=hm_0"]]
    for disk in ("0", "hm_0"):
        _, disk0 = records("--disk", disk, str(TRACES / "msr-sample.csv"))
        assert [r[2] for r in disk0] == ["1054752768", "1054752768"]


def test_msr_hosts_keep_their_disks_apart(tmp_path: Path) -> None:
    """Two hosts' disk 0 (MSR's traces concatenated) are two disks, named
    by host in the census; --disk HOST_N picks one, a host absent or a
    trace without hosts refuses it."""
    trace = tmp_path / "two-hosts.csv"
    trace.write_text((TRACES / "msr-sample.csv").read_text()
                     + "128166372053061629,prn,0,Write,8192,4096,5\n")
    _, recs = records("--disk", "prn_0", str(trace))
    assert [(r[1], r[2], r[4]) for r in recs] == [("W", "8192", "disk=prn_0")]
    _, first_host = records("--disk", "0", str(trace))
    assert {r[4] for r in first_host} == {"disk=hm_0"}
    out = json.loads(ssdsim("--json", "--config", str(SMALL), "--disk",
                            "prn_0", str(trace)).stdout)
    assert out["trace"]["disks"] == {"hm_0": 2, "hm_1": 3, "prn_0": 1}
    assert out["trace"]["disk"] == "prn_0"
    assert out["host_write_bytes"] > 0 and out["host_read_bytes"] == 0
    proc = ssdsim("--config", str(SMALL), "--disk", "web_0", str(trace),
                  check=False)
    assert proc.returncode != 0
    assert "--disk web_0" in proc.stderr
    assert "prn_0 (1 requests)" in proc.stderr
    assert "names no hosts" in refused("--disk", "hm_0",
                                       str(TRACES / "mqsim-tpcc-small.trace"))


def test_spc_sample() -> None:
    fmt, recs = records(str(TRACES / "spc-sample.spc"))
    assert fmt == "spc"
    # ASU,LBA (512 bytes),size (bytes),op,seconds.
    assert recs == [
        ["0", "W", str(303567 * 512), "3584", "disk=0"],
        ["0", "W", str(55590 * 512), "3072", "disk=1"],
        ["26214000", "R", str(303574 * 512), "4096", "disk=0"],
        ["26215000", "R", str(28001 * 512), "512", "disk=2"],
        ["1500000000", "W", str(55590 * 512), "3072", "disk=1"]]


def test_lcs_csv_columns_by_header_or_default(tmp_path: Path) -> None:
    trace = tmp_path / "t.csv"
    # A header names the columns (any order, aliases, '|' delimiter).
    trace.write_text("rw|key|timestamp|len|extra\n"
                     "get|100|5|4096|x\nset|0x20|6.5||y\ntrim|7|8|1024|z\n")
    fmt, recs = records(str(trace))
    assert fmt == "lcs-csv"
    assert recs == [["0", "R", "51200", "4096"],
                    ["1500000000", "W", str(0x20 * 512), "512"],
                    ["3000000000", "T", "3584", "1024"]]
    # Without a header: time,obj_id,obj_size[,op], only when named.
    trace.write_text("1,2,3\n4,5,6,w\n")
    assert "t.csv:1: trace format not recognised" in refused(str(trace))
    fmt, recs = records("--format", "lcs-csv", str(trace))
    assert recs == [["0", "R", "1024", "3"], ["3000000000", "W", "2560", "6"]]
    trace.write_text("1,2,3,x\n")
    assert "t.csv:1: not a lcs-csv trace line" in refused(
        "--format", "lcs-csv", str(trace))


def test_lcs_txt_ids(tmp_path: Path) -> None:
    trace = tmp_path / "t.txt"
    trace.write_text("7\n0x10\n\n8\n")
    fmt, recs = records(str(trace))
    assert fmt == "lcs-txt"
    assert recs == [["0", "R", "3584", "512"], ["0", "R", "8192", "512"],
                    ["0", "R", "4096", "512"]]
    trace.write_text("7\n8 9\n")
    assert "t.txt:2: not a lcs-txt trace line" in refused(str(trace))


def test_existing_formats_read_as_a_python_parse() -> None:
    """The scanner reads the old formats as sscanf did."""
    text = (TRACES / "mqsim-tpcc-small.trace").read_text().splitlines()
    expected = []
    for line in text:
        t, dev, lba, sectors, kind = (int(x) for x in line.split())
        expected.append([t, "R" if kind else "W", lba * 512, sectors * 512,
                         f"disk={dev}"])
    first = expected[0][0]
    _, recs = records(str(TRACES / "mqsim-tpcc-small.trace"))
    assert recs == [[str(e[0] - first), *map(str, e[1:])] for e in expected]

    text = (TRACES / "fiu-mail-sample.blkparse").read_text().splitlines()
    _, recs = records(str(TRACES / "fiu-mail-sample.blkparse"))
    first = int(text[0].split()[0])
    assert recs == [[str(int(f[0]) - first), f[5], str(int(f[3]) * 512),
                     str(int(f[4]) * 512), f"disk={f[6]},{f[7]}", f[8]]
                    for f in (line.split() for line in text)]


def test_bad_input_is_refused_with_file_and_line(tmp_path: Path) -> None:
    trace = tmp_path / "t.trace"
    # Offsets: 2^53 sectors is 2^62 bytes (taken); 2^54 sectors end past
    # 2^63; 2^55 sectors overflow 64 bits.
    trace.write_text(f"0 0 {2**53} 8 0\n")
    assert records(str(trace))[1] == [["0", "W", str(2**62), "4096",
                                       "disk=0"]]
    for lba in (2**54, 2**55, 2**64 - 1):
        trace.write_text(f"0 0 0 8 0\n0 0 {lba} 8 0\n")
        assert "t.trace:2: a request beyond 2^63 bytes" in refused(str(trace))
    trace.write_text(f"0 0 0 8 0\n0 0 {2**64} 8 0\n")
    assert "t.trace:2: not a mqsim trace line" in refused(str(trace))
    trace.write_text("0 0 0 8 0\n0 0 -1 8 0\n")
    assert "t.trace:2: not a mqsim trace line" in refused(str(trace))

    msr = tmp_path / "m.csv"
    good = (TRACES / "msr-sample.csv").read_text().splitlines()
    msr.write_text("\n".join(good[:2] + ["1,hm,1,Erase,0,4096,1"]) + "\n")
    assert "m.csv:3: not a msr trace line" in refused(str(msr))

    oracle = tmp_path / "o.bin"
    oracle.write_bytes((TRACES / f"{CP}.oracleGeneral.bin").read_bytes()
                       + b"\1" * 10)
    assert "o.bin: record 201: truncated: 10 of its 24 bytes" in refused(
        str(oracle))

    vscsi = bytearray((TRACES / f"{CP}.vscsi").read_bytes()[:96])
    vscsi[32 + 12] = 0x12      # record 2: INQUIRY
    (tmp_path / "v.vscsi").write_bytes(bytes(vscsi))
    assert "v.vscsi: record 2: SCSI command 0x12 is no read, write" in \
        refused(str(tmp_path / "v.vscsi"))

    zst = tmp_path / "z.zst"
    zst.write_bytes(bytes([0x28, 0xB5, 0x2F, 0xFD]) + b"\xff" * 40)
    assert "z.zst: not a valid zstd stream" in refused(str(zst))
    whole = (TRACES / f"{CP}.oracleGeneral.bin.zst").read_bytes()
    zst.write_bytes(whole[:len(whole) // 2])
    assert "z.zst: the zstd stream is truncated" in refused(str(zst))

    assert "names no disks" in refused("--disk", "1", str(TRACES /
                                                          f"{CP}.vscsi"))


def test_every_format_listed_is_taken(tmp_path: Path) -> None:
    """The list the errors print is the formats --format takes."""
    proc = dump("--format", "none", str(tmp_path), check=False)
    listed = proc.stderr.split("known: ")[1].rstrip(")\n").split("|")
    assert len(listed) == 12 and listed[0] == "auto"
    empty = tmp_path / "empty"
    empty.write_text("")
    for name in listed:
        assert dump("--format", name, str(empty)).returncode == 0


def test_an_empty_trace_is_no_error(tmp_path: Path) -> None:
    for text in ("", "# only a comment\n\n"):
        trace = tmp_path / "empty.trace"
        trace.write_text(text)
        assert records(str(trace)) == ("", [])


def test_a_named_format_that_takes_no_line_is_refused(
        tmp_path: Path) -> None:
    """Issue 33: --format blkparse on an MSR trace skipped every line and
    exited 0 with the statistics of an idle device.  A format that takes
    none of a trace's data lines is an error naming it and the format the
    lines look like, in the readers (trace_dump, ssdsim) and in
    ssdsim.run(); a trace of no data lines stays a warning (above)."""
    msr = str(TRACES / "msr-sample.csv")
    err = refused("--format", "blkparse", msr)
    assert "the blkparse reader took none of its 5 data lines" in err
    assert "--format msr" in err
    proc = ssdsim("--config", str(SMALL), "--format", "blkparse", msr,
                  check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "blkparse reader took none" in proc.stderr
    assert "--format msr" in proc.stderr
    with pytest.raises(sim.SsdsimError, match="--format msr"):
        sim.run(msr, config=SMALL, format="blkparse", stderr=None)
    # Lines of no known format: the format is named, nothing suggested.
    other = tmp_path / "other.trace"
    other.write_text("Q Q Q\n")
    err = refused("--format", "blkparse", str(other))
    assert "not a blkparse trace?" in err
    # An lcs-csv header is no data line: a header alone is empty.
    header = tmp_path / "header.csv"
    header.write_text("time,obj_id,obj_size,op\n")
    assert records("--format", "lcs-csv", str(header)) == ("", [])


def test_a_first_line_error_is_said_once(tmp_path: Path) -> None:
    """Issue 33: ssdsim read the first record twice (to choose its data
    store, then to replay), so a broken first line was reported twice."""
    bad = tmp_path / "bad.trace"
    bad.write_text("1 2 3\n")
    fiu = tmp_path / "fiu.trace"
    fiu.write_text("0 0 0 8 0\n")
    for args in ([str(bad)], ["--format", "fiu", str(fiu)]):
        proc = ssdsim("--config", str(SMALL), *args, check=False)
        assert proc.returncode == 1
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and ":1: " in lines[0], proc.stderr


def test_ssdsim_names_formats_and_replays_each(tmp_path: Path) -> None:
    proc = ssdsim("--config", str(SMALL), "--format", "bogus",
                  str(TRACES / "msr-sample.csv"), check=False)
    assert proc.returncode != 0
    assert "--format bogus" in proc.stderr
    for name in ("mqsim", "msr", "spc", "oracle", "vscsi", "lcs-csv",
                 "lcs-txt", "oracle-opns"):
        assert name in proc.stderr
    samples = {"msr-sample.csv": "msr", "spc-sample.spc": "spc",
               f"{CP}.oracleGeneral.bin": "oracle",
               f"{CP}.oracleGeneral.bin.zst": "oracle",
               f"{CP}.vscsi": "vscsi", f"{CP}.csv": "lcs-csv",
               f"{CP}.txt": "lcs-txt"}
    for sample, fmt in samples.items():
        out = json.loads(ssdsim("--json", "--check", "--config", str(SMALL),
                                "--remap", "dense",
                                str(TRACES / sample)).stdout)
        assert out["trace"]["format"] == fmt, sample
        assert out["host_read_bytes"] + out["host_write_bytes"] > 0, sample
    # With 512-byte logical blocks no sector-aligned request is widened.
    vscsi = json.loads(ssdsim("--json", "--config", str(SMALL), "--remap",
                              "dense", "logical_block_bytes=512",
                              str(TRACES / f"{CP}.vscsi")).stdout)
    expected = vscsi_expected()
    assert vscsi["host_write_bytes"] == sum(r[3] for r in expected
                                            if r[1] == "W")


def test_cachesim_reads_the_new_formats() -> None:
    run = cs.run(TRACES / f"{CP}.vscsi", ["--census"],
                 binary=cs.CACHESIM_ASAN, timeout=60)
    assert run["trace"]["format"] == "vscsi"


OPNS = struct.Struct("<IQIBHq")  # libCacheSim's oracleGeneralOpNS record


def test_oracle_opns_ops_disks_and_bad_op(tmp_path: Path) -> None:
    """oracleGeneralOpNS (27-byte records): gets/READ read, sets/WRITE
    write, DELETE trims, ns names the disk (--disk picks one); the format
    is told by libCacheSim's file name; an op with no block meaning is
    refused with its record number."""
    assert OPNS.size == 27
    rows = [(0, 100, 4096, 13, 0, -1), (0, 200, 8192, 12, 0, -1),
            (1, 100, 4096, 1, 7, -1), (2, 256, 16384, 3, 7, -1),
            (2, 256, 16384, 9, 7, 5)]
    trace = tmp_path / "vol.oracleGeneralOpNS.bin"
    trace.write_bytes(b"".join(OPNS.pack(*r) for r in rows))
    fmt, got = records(str(trace))
    assert fmt == "oracle-opns"
    second = 1_000_000_000
    assert [f[:5] for f in got] == [
        ["0", "W", "51200", "4096", "disk=0"],
        ["0", "R", "102400", "8192", "disk=0"],
        [str(second), "R", "51200", "4096", "disk=7"],
        [str(2 * second), "W", "131072", "16384", "disk=7"],
        [str(2 * second), "T", "131072", "16384", "disk=7"]]
    other = tmp_path / "vol.bin"
    other.write_bytes(trace.read_bytes())
    _, picked = records("--format", "oracle-opns", "--disk", "7", str(other))
    assert [f[1] for f in picked] == ["R", "W", "T"]
    out = json.loads(ssdsim("--json", "--config", str(SMALL),
                            str(trace)).stdout)
    assert out["trace"]["format"] == "oracle-opns"
    assert out["trace"]["disks"] == {"0": 2, "7": 3}
    assert out["host_read_bytes"] > 0 and out["host_write_bytes"] > 0
    assert out["host_trim_bytes"] > 0
    bad = tmp_path / "bad.oracleGeneralOpNS.bin"
    bad.write_bytes(OPNS.pack(0, 1, 512, 13, 0, -1)
                    + OPNS.pack(0, 1, 512, 0, 0, -1))
    assert "record 2: libCacheSim op 0" in refused(str(bad))
