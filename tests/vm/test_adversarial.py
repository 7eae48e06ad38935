"""The device's own adversarial suite, in a VM on every target kernel.

What a hostile or careless user does to the module, each category in one
boot (guest scripts in tests/vm/guest/): tearing devices down under load,
writing nonsense to every configfs attribute, fuzzing the ioctls, and
lifecycle loops.  The VM bed fails a test on any kernel WARNING, BUG, oops
or hung-task report; here the scripts' own counts are checked too.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUEST = HERE / "guest"
FILES = {
    "/lib.sh": str(GUEST / "lib.sh"),
}

# A teardown that takes longer than this is waiting for modeled time.
TEARDOWN_MAX_S = 5.0


def guest(name: str) -> str:
    return (GUEST / name).read_text()


def tagged(output: str, tag: str) -> dict[str, dict[str, str]]:
    """Lines 'TAG name=N key=value ...' as {N: {key: value}}."""
    found: dict[str, dict[str, str]] = {}
    for line in re.findall(rf"^{tag} (.*)$", output, re.M):
        fields = dict(kv.split("=", 1) for kv in line.split())
        found[fields["name"]] = fields
    return found


def test_teardown_under_load(vm: Any, kver: str) -> None:
    """rmdir with a full queue of I/O on the slowest preset, and on a
    device with minutes of modeled backlog, returns at once; so does fio;
    the hung-task detector (10 s) stays quiet; `ssdctl destroy` of an open
    disk is refused at once and leaves it working; rmmod is refused while
    a device exists."""
    res = vm.run(guest("teardown.sh"), kver, files=FILES, timeout_s=600)
    out = res.output
    assert "teardown ok" in out
    runs = tagged(out, "TEARDOWN")
    assert set(runs) == {"preset", "slow", "mounted"}
    for name, run in runs.items():
        assert float(run["seconds"]) < TEARDOWN_MAX_S, run
        assert float(run["fio_exit_s"]) < TEARDOWN_MAX_S, run
        # Requests were pending, and the kernel said how far ahead.
        assert int(run["backlog_ms"]) > 0, run
    for name in ("preset", "slow"):
        assert int(runs[name]["inflight"]) >= 4000
    # The slow device held minutes of modeled time: waiting for it would
    # have tripped the hung-task detector many times over.
    assert int(runs["slow"]["backlog_ms"]) > 60000
    refused = float(re.search(r"REFUSED destroy seconds=([0-9.]+)",
                              out).group(1))
    assert refused < TEARDOWN_MAX_S
    assert "REFUSED rmmod with device" in out
    for name, run in runs.items():
        print(f"{kver}: rmdir {name}: {run['seconds']} s with "
              f"{run['inflight']} requests in flight, up to "
              f"{int(run['backlog_ms']) / 1000:.1f} s ahead of their "
              f"modeled time; fio exited after {run['fio_exit_s']} s")
        vm.record_timing(kver, f"teardown {name}", float(run["seconds"]))
    vm.record_timing(kver, "teardown test", res.wall_s)
