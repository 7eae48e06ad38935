"""nvme-cli on /dev/ssdemuN: the NVMe passthrough (emulator/ssdemu_nvme.c).

One boot per kernel runs tests/vm/guest/nvme.sh: Debian's nvme-cli 2.3
reads Identify Controller and Namespace, the SMART / Health log (text and
JSON), the vendor log page 0xC0 and the error log of a small device after
a known write workload that wore it, and gets an NVMe status for a bogus
opcode, a wrong namespace, an unknown log page and a buffer too short.
Every value is checked here against `ssdctl stats --json`, printed before
and after the NVMe commands (which must not move a counter), and the
vendor page's layout against the table of docs/nvme.md.
"""
from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

from ssdtools.guest import blocks, stats_blocks
from test_ssdemu import FILES, guest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "nvme.md"

# NVMe statuses with Do Not Retry, as nvme-cli prints them.
STATUS = {"opcode": 0x4001, "nsid": 0x400B, "log-id": 0x4109, "short": 0x4002}


def vendor_layout() -> list[str]:
    """The vendor page's field names, in order, from docs/nvme.md."""
    rows = re.findall(r"^\| (\d+) \| (\d+) \| (\w+)", DOC.read_text(), re.M)
    for i, (field, byte, _) in enumerate(rows):
        assert (int(field), int(byte)) == (i, 8 * i), rows[i]
    return [name for _, _, name in rows]


def vendor_layout_version() -> int:
    """The layout version docs/nvme.md gives field 0 (`make counters`
    writes it from the module's SSDEMU_NVME_VENDOR_LAYOUT)."""
    m = re.search(r"^\| 0 \| 0 \| layout \((\d+)\) \|$", DOC.read_text(),
                  re.M)
    assert m, "no layout row in docs/nvme.md"
    return int(m.group(1))


def data_units(nbytes: int) -> int:
    """NVMe data units: thousands of 512-byte units, rounded up."""
    units_512 = (nbytes + 511) // 512
    return (units_512 + 999) // 1000


def test_nvme_cli(vm: Any, kver: str) -> None:
    res = vm.run(guest("nvme.sh"), kver, files=FILES, timeout_s=900)
    out = res.output
    assert "nvme ok" in out
    st = stats_blocks(out)
    before, after = st["before"], st["after"]
    # The NVMe commands read; they move no counter.
    assert before == after
    nv = blocks(out, "NVME-OUT")
    written = int(re.search(r"NVME written_bytes=(\d+)", out).group(1))
    capacity = int(re.search(r"NVME capacity_bytes=(\d+)", out).group(1))
    assert before["host_write_bytes"] == written
    assert capacity == before["logical_capacity_bytes"]

    ctrl = json.loads(nv["id-ctrl"])
    assert ctrl["mn"].strip() == "ssdemu"
    assert ctrl["sn"].strip() == "n"
    version = (ROOT / "VERSION").read_text().strip()
    assert ctrl["fr"].strip() == version
    assert ctrl["nn"] == 1 and ctrl["elpe"] == 3 and ctrl["mdts"] == 5
    assert int(ctrl["tnvmcap"]) == capacity

    ns = json.loads(nv["id-ns"])
    assert ns["nsze"] == ns["ncap"] == capacity // 4096
    assert ns["nlbaf"] == 0 and ns["flbas"] == 0
    assert ns["lbafs"][0]["ds"] == 12

    ns512 = json.loads(nv["id-ns-512"])
    capacity512 = int(re.search(r"NVME capacity512_bytes=(\d+)", out).group(1))
    assert ns512["nsze"] == capacity512 // 512
    assert ns512["lbafs"][0]["ds"] == 9
    # A 4 KiB flash page is 8 logical blocks (the fields are 0-based).
    assert ns512["npwg"] == ns512["npwa"] == ns512["npdg"] == 7
    assert ns["npwg"] == 0

    smart = json.loads(nv["smart-log"])
    assert int(smart["data_units_written"]) == data_units(written)
    # Not a multiple of 512,000 bytes: the rounding up is visible.
    assert written % 512000 != 0
    read = before["host_read_bytes"]
    assert int(smart["data_units_read"]) == data_units(read)
    assert int(smart["host_read_commands"]) == before["read_commands"]
    assert int(smart["host_write_commands"]) == before["write_commands"]
    # pe_cycle_limit=2: the device was worn on purpose.
    percent = min(255, before["erase_count_mean_milli"] * 100 // 2000)
    assert percent > 0
    assert smart["percent_used"] == percent
    block = before["page_size_bytes"] * before["pages_per_block"]
    op_blocks = (before["physical_capacity_bytes"]
                 - before["logical_capacity_bytes"]) // block
    assert smart["avail_spare"] == min(100, before["free_blocks"] * 100
                                       // op_blocks)
    assert smart["spare_thresh"] == -(-2 * 100 // op_blocks)
    assert smart["temperature"] == 313
    assert int(smart["media_errors"]) == 0
    assert int(smart["num_err_log_entries"]) == 0
    assert "percentage_used" in nv["smart-log-text"]

    # The vendor page, decoded.
    raw = bytes(int(b, 16) for b in nv["vendor"].split())
    assert len(raw) == 512
    fields = struct.unpack("<64Q", raw)
    names = vendor_layout()
    assert fields[0] == vendor_layout_version() == 2
    assert fields[1] == len(names) - 2
    assert fields[2] == (before["flash_program_pages"] * 1000
                         // before["host_write_pages"])
    for i, name in enumerate(names[3:], start=3):
        assert fields[i] == before[name], name
    assert not any(fields[len(names):])
    assert fields[names.index("flash_erase_blocks")] > 0

    # Bad commands: the NVMe status, with DNR.
    for what, status in STATUS.items():
        line = re.search(rf"NVME-STATUS {what}: (.*)", out).group(1)
        assert f"(0x{status:x})" in line, line
    errors = json.loads(nv["error-log"])["errors"]
    assert [e["error_count"] for e in errors] == [4, 3, 2, 1]
    # Newest first (nvme-cli shows the status field without the phase tag).
    assert [e["status_field"] for e in errors] == list(STATUS.values())[::-1]
    assert [e["parm_error_location"] for e in errors] == [0xFFFF, 40, 4, 0]
    assert [e["nsid"] for e in errors] == [0, -1, 2, 0]
    assert int(json.loads(nv["smart-log-after"])["num_err_log_entries"]) == 4
    # `nvme list` scans sysfs for NVMe controllers: there are none.
    assert "ssdemu" not in nv["list"]
    print(f"{kver}: smart-log: data units written "
          f"{smart['data_units_written']} for {written} bytes, "
          f"percentage used {smart['percent_used']}% "
          f"(mean erase count {before['erase_count_mean_milli'] / 1000}, "
          f"limit 2), available spare {smart['avail_spare']}%")
    print(nv["smart-log-text"])
    vm.record_timing(kver, "nvme test", res.wall_s)
