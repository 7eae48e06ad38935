"""ssdctl says what it does: `ssdctl --help` lists every subcommand,
`ssdctl SUBCMD --help` gives its usage and description (exit 0, stdout),
`ssdctl --version` the VERSION file's; a wrong call still gets the usage
on stderr and exit 2.  Runs the host build of ssdctl (no module needed).
"""
from __future__ import annotations

import re
import subprocess

import pytest

from ssdtools.paths import BUILD, ROOT

SSDCTL = BUILD / "bin" / "ssdctl"
# The subcommands main() dispatches on (tools/ssdctl/ssdctl.c).
COMMANDS = sorted(set(re.findall(r'strcmp\(argv\[1\], "([a-z]+)"\)',
                                 (ROOT / "tools" / "ssdctl" / "ssdctl.c")
                                 .read_text())) - {"help", "save"})


def ssdctl(*args: str) -> subprocess.CompletedProcess[str]:
    assert SSDCTL.is_file(), "build/bin/ssdctl: run make tools"
    return subprocess.run([str(SSDCTL), *args], text=True,
                          capture_output=True, timeout=10, check=False)


def test_commands_found() -> None:
    assert {"create", "destroy", "stats", "log"} <= set(COMMANDS)


def test_help_lists_every_command() -> None:
    res = ssdctl("--help")
    assert res.returncode == 0 and not res.stderr
    for cmd in COMMANDS:
        assert re.search(rf"^  {cmd} +\S", res.stdout, re.M), cmd
        assert f"ssdctl {cmd} " in res.stdout, cmd


@pytest.mark.parametrize("cmd", COMMANDS)
@pytest.mark.parametrize("form", ["SUBCMD --help", "SUBCMD -h", "help SUBCMD"])
def test_subcommand_help(cmd: str, form: str) -> None:
    args = [cmd if w == "SUBCMD" else w for w in form.split()]
    res = ssdctl(*args)
    assert res.returncode == 0 and not res.stderr, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith(f"usage: ssdctl {cmd}")
    assert len(lines) >= 5, res.stdout   # usage, summary, a description


def test_help_after_arguments_does_nothing_else() -> None:
    res = ssdctl("destroy", "nosuchdevice", "--help")
    assert res.returncode == 0
    assert res.stdout.startswith("usage: ssdctl destroy")


def test_version() -> None:
    version = (ROOT / "VERSION").read_text().strip()
    assert ssdctl("--version").stdout == f"ssdctl {version}\n"


def test_wrong_call_gets_usage_on_stderr() -> None:
    for args in ([], ["frobnicate"], ["stats"]):
        res = ssdctl(*args)
        assert res.returncode == 2 and not res.stdout
        assert "usage: ssdctl" in res.stderr
    res = ssdctl("help", "frobnicate")
    assert res.returncode == 2 and "unknown command" in res.stderr
