"""ssdsim.Device: one emulated SSD driven request by request.

Owns the device handle of libssdsim.so (create, submit, stats, destroy)
and the request iterator runner.  Requests are placed and filled as
ssdsim's replay does (its addresses kept, a request covering the logical
blocks it touches, an address beyond the device wrapped around it), so
the times equal `ssdsim --completions` for the same requests.
"""
from __future__ import annotations

import ctypes
from typing import Any, Iterable, Union

from ssdsim._lib import c_strings, load, take_result, take_string
from ssdsim.errors import SsdsimError
from ssdsim.paths import Path_
from ssdsim.results import Completion, from_values
from ssdsim.runner import KeyValues, key_strings

OPS = {"R": 0, "W": 1, "T": 2, "Z": 3, "F": 4,
       "read": 0, "write": 1, "trim": 2, "write_zeroes": 3, "flush": 4}
Op = Union[int, str]


def op_number(op: Op) -> int:
    """enum ssdemu_log_op of @op: 0-4, or R/W/T/Z/F, or its name."""
    if isinstance(op, int) and 0 <= op <= 4:
        return op
    if isinstance(op, str) and op in OPS:
        return OPS[op]
    raise SsdsimError(f"ssdsim: op {op!r} refused: 0-4, R/W/T/Z/F or"
                      f" {', '.join(k for k in OPS if len(k) > 1)}")


class Device:
    """A device from a preset and keys, e.g.
    Device(config="configs/small-test.conf", cache_pages=256).

    Its data store is the one ssdsim would choose: the data_store key if
    given, else page bytes only with data=True (`ssdsim --data`), a
    digest per page with dedup on, nothing otherwise; no counter or time
    depends on it, only the RAM figures."""

    def __init__(self, config: Path_ | None = None,
                 keys: KeyValues = None, data: bool = False,
                 **more_keys: Any) -> None:
        self._lib = load()
        strings = key_strings(keys, **more_keys)
        err = ctypes.c_void_p()
        handle = self._lib.ssdsim_api_device_create(
            str(config).encode() if config is not None else None,
            len(strings), c_strings(strings), int(data), ctypes.byref(err))
        message = take_string(self._lib, err.value)
        if not handle:
            raise SsdsimError(message or "ssdsim: configuration refused")
        self._handle: int | None = handle

    def _live(self) -> int:
        if self._handle is None:
            raise SsdsimError("ssdsim: the device was closed")
        return self._handle

    def submit(self, op: Op, offset_bytes: int, length_bytes: int,
               arrival_ns: int, content_hash: str | None = None
               ) -> Completion | None:
        """Run one request; None if ssdsim would skip it (no length, or
        a TRIM of less than a logical block).  Raises SsdsimError if it
        fails (nothing is done then)."""
        arrival, done = ctypes.c_uint64(), ctypes.c_uint64()
        err = ctypes.c_void_p()
        ret = self._lib.ssdsim_api_device_submit(
            self._live(), op_number(op), offset_bytes, length_bytes,
            arrival_ns, content_hash.encode() if content_hash else None,
            ctypes.byref(arrival), ctypes.byref(done), ctypes.byref(err))
        message = take_string(self._lib, err.value)
        if ret < 0:
            raise SsdsimError(message or "ssdsim: request failed")
        if ret > 0:
            return None
        return Completion(arrival.value, done.value)

    def flush(self, arrival_ns: int) -> Completion | None:
        return self.submit(4, 0, 0, arrival_ns)

    def run(self, requests: Iterable[tuple[Any, ...]]
            ) -> list[Completion | None]:
        """Submit each (op, offset_bytes, length_bytes, arrival_ns[,
        content_hash]) in order; their completions."""
        return [self.submit(*r) for r in requests]

    def stats(self) -> dict[str, Any]:
        """The counters, as `ssdsim --json` names them."""
        done = take_result(self._lib,
                           self._lib.ssdsim_api_device_stats(self._live()))
        if done.status:
            raise SsdsimError(done.said or "ssdsim: no statistics")
        stats: dict[str, Any] = from_values(done.events)
        return stats

    def reset_stats(self) -> None:
        self._lib.ssdsim_api_device_reset_stats(self._live())

    def close(self) -> None:
        if self._handle is not None:
            self._lib.ssdsim_api_device_destroy(self._handle)
            self._handle = None

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_handle", None) is not None:
            self.close()
