"""The snapshot benchmark's host side without a VM: the guest's TIME,
BYTES and STATS lines become medians, throughputs and ratios; a missing
round is an error; snapshot.md
keeps the ssdsim table when a kernel's table is written, and the other
way round."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import snapshot, snapshot_vm

MB = 1_000_000


def guest_output(times: dict[str, list[float]], snap: int = 100 * MB,
                 dd: int = 101 * MB, skip: tuple[str, int] | None = None
                 ) -> str:
    lines = ["STATS-BEGIN s0",
             json.dumps({"valid_pages": 20_000, "page_size_bytes": 4096}),
             "STATS-END s0"]
    for rnd in (1, 2, 3):
        for what, secs in times.items():
            if (what, rnd) != skip:
                lines.append(f"TIME s0 {rnd} {what} {secs[rnd - 1]:.2f}")
        lines.append(f"BYTES s0 {rnd} {snap} {dd}")
    return "\n".join(lines) + "\nsnapshot_vm ok\n"


TIMES = {"save": [2.0, 1.0, 4.0], "ddread": [1.0, 0.5, 0.8],
         "load": [1.0, 1.0, 1.0], "create": [0.1, 0.1, 0.1],
         "ddwrite": [2.0, 2.0, 2.0]}


def test_medians_throughputs_and_ratios() -> None:
    # A later save a byte longer (the reads changed the read counters).
    out = guest_output(TIMES).replace(f"BYTES s0 3 {100 * MB}",
                                      f"BYTES s0 3 {100 * MB + 1}")
    [row] = snapshot_vm.parse(out, ["fill=0.5"], 3)
    assert row["snapshot_bytes_by_round"] == [100 * MB] * 2 + [100 * MB + 1]
    assert row["snapshot_bytes"] == 100 * MB
    assert row["spec"] == "fill=0.5"
    assert row["save_s"] == [2.0, 1.0, 4.0]
    assert row["valid_data_bytes"] == 20_000 * 4096
    assert row["size_per_valid_byte"] == pytest.approx(100 * MB / 81.92e6)
    # Medians of the rounds' throughputs: 50, 100, 25 MB/s.
    assert row["save_mb_per_s"] == pytest.approx(50)
    assert row["ddread_mb_per_s"] == pytest.approx(126.25)  # 101 / 0.8
    assert row["save_vs_dd"] == pytest.approx(50 / 126.25)
    assert row["load_mb_per_s"] == pytest.approx(100)
    assert row["ddwrite_mb_per_s"] == pytest.approx(50.5)
    assert row["load_vs_dd"] == pytest.approx(100 / 50.5)


def test_missing_round_refused() -> None:
    with pytest.raises(ValueError, match="ddwrite: rounds"):
        snapshot_vm.parse(guest_output(TIMES, skip=("ddwrite", 2)),
                          ["fill=0.5"], 3)
    with pytest.raises(ValueError, match="BYTES or STATS"):
        snapshot_vm.parse(guest_output(TIMES).replace("STATS", "X"),
                          ["fill=0.5"], 3)
    with pytest.raises(ValueError, match="save: rounds"):
        snapshot_vm.parse(guest_output(TIMES), ["fill=0.5"], 4)


def test_snapshot_md_keeps_both_tables(tmp_path: Path) -> None:
    snapshot.write_part("Kernel k (in the VM): x", ["vm table"], tmp_path)
    snapshot.write_part(snapshot.SIM_HEADING, ["sim table"], tmp_path)
    snapshot.write_part("Kernel k (in the VM): x", ["vm table 2"], tmp_path)
    text = (tmp_path / "snapshot.md").read_text()
    assert text == (snapshot.TITLE + "\n\n## " + snapshot.SIM_HEADING
                    + "\n\nsim table\n\n## Kernel k (in the VM): x\n\n"
                    "vm table 2\n")
