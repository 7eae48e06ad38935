"""The binding's one error type.

Owns SsdsimError: what ssdsim said when it refused or failed, its exit
status, and the command line when a named binary was asked for (see
ssdsim.run()), which its message then leads with.
"""
from __future__ import annotations

from typing import Any, Sequence


class SsdsimError(RuntimeError):
    """ssdsim refused or failed (an unknown key, a bad value, a bad
    trace, a request beyond the device), or a tool of this package
    refused its arguments.

    `stderr` is what ssdsim printed, `status` the exit status the binary
    gives, `command` the command line when a binary was named.  The
    message is ssdsim's alone, or with a command, the command, its status
    and what it printed (`build/bin/ssdsim ... --json t: exit 1\\n...`).
    """

    def __init__(self, stderr: str, status: int = 1,
                 command: Sequence[Any] | None = None) -> None:
        self.stderr = stderr
        self.status = status
        self.command = [str(c) for c in command] if command else None
        if self.command is None:
            message = stderr.rstrip("\n")
        else:
            message = f"{' '.join(self.command)}: exit {status}\n{stderr}"
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole across processes (a sweep's pool, a cluster's workers).
        return (type(self), (self.stderr, self.status, self.command))
