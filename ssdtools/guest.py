"""What the guest scripts print between markers.

Owns the parsing of the blocks guest scripts write to their output: the
text between a "NAME-BEGIN tag" line and a "NAME-END tag" line (fio's
JSON as FIO, an IOPS log as IOPSLOG, ...), and the device's statistics
that print_stats of tests/vm/guest/lib.sh prints as STATS blocks of JSON.
"""
from __future__ import annotations

import json
import re
from typing import Any


def blocks(output: str, name: str) -> dict[str, str]:
    """The text between 'NAME-BEGIN tag' and 'NAME-END tag' lines, by
    tag (a tag printed twice: its last block)."""
    return dict(re.findall(rf"{name}-BEGIN (\S+)\n(.*?)\n{name}-END \1",
                           output, re.S))


def stats_blocks(output: str) -> dict[str, dict[str, Any]]:
    """The JSON between 'STATS-BEGIN tag' and 'STATS-END tag' lines (the
    device's statistics, print_stats of lib.sh), by tag."""
    return {tag: json.loads(body)
            for tag, body in blocks(output, "STATS").items()}
