"""The binding to libssdsim.so (tools/ssdsim/ssdsim_api.h), with ctypes.

Owns finding the library ($SSDSIM_LIB, else build/lib/libssdsim.so of
this repository, built by `make python`), its functions' prototypes and
its one struct (struct ssdsim_value), turning what it hands over into
Python values (malloc'd strings; a result's status, messages and values,
the result freed), and the calls that are one C function each (a
command line run, a configuration check).
"""
from __future__ import annotations

import ctypes
import functools
import os
from pathlib import Path
from typing import Any, NamedTuple

from ssdsim.errors import SsdsimError
from ssdsim.paths import LIBSSDSIM

API_VERSION = 2


def lib_path() -> Path:
    """Where the library is looked for: $SSDSIM_LIB or the build tree."""
    env = os.environ.get("SSDSIM_LIB")
    return Path(env) if env else LIBSSDSIM


_c_str_p = ctypes.c_void_p  # a malloc'd char * the caller frees
_u64 = ctypes.c_uint64


class _Value(ctypes.Structure):
    """struct ssdsim_value."""
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int),
                ("uint", ctypes.c_uint64), ("real", ctypes.c_double),
                ("text", ctypes.c_char_p)]


# enum ssdsim_type
_NULL, _BOOL, _UINT, _REAL, _TEXT, _OBJECT, _ARRAY, _END = range(8)
_CONTAINERS = {_OBJECT: "object", _ARRAY: "array", _END: "end"}

# One value of a result: its name (None in an array), what it is
# ("object" or "array" opens one, "end" closes it, "value" is a scalar)
# and, for a scalar, its Python value.
Event = tuple[str | None, str, Any]


class Result(NamedTuple):
    """What a run handed over: the exit status the program gives, what
    it said (its stderr, the lines joined) and its values in --json's
    order (none if it was refused)."""
    status: int
    said: str
    events: list[Event]


def _prototypes(lib: ctypes.CDLL) -> None:
    result_p = ctypes.c_void_p
    for name, args, ret in [
            ("ssdsim_api_free", [ctypes.c_void_p], None),
            ("ssdsim_run", [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
             result_p),
            ("ssdsim_result_status", [result_p], ctypes.c_int),
            ("ssdsim_result_message_count", [result_p], ctypes.c_size_t),
            ("ssdsim_result_message", [result_p, ctypes.c_size_t],
             ctypes.c_char_p),
            ("ssdsim_result_value_count", [result_p], ctypes.c_size_t),
            ("ssdsim_result_values", [result_p], ctypes.POINTER(_Value)),
            ("ssdsim_result_free", [result_p], None),
            ("ssdsim_api_config_check",
             [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
              ctypes.POINTER(_c_str_p)], ctypes.c_int),
            ("ssdsim_api_device_create",
             [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
              ctypes.c_int, ctypes.POINTER(_c_str_p)], ctypes.c_void_p),
            ("ssdsim_api_device_submit",
             [ctypes.c_void_p, ctypes.c_uint, _u64, _u64, _u64,
              ctypes.c_char_p, ctypes.POINTER(_u64), ctypes.POINTER(_u64),
              ctypes.POINTER(_c_str_p)], ctypes.c_int),
            ("ssdsim_api_device_stats", [ctypes.c_void_p], result_p),
            ("ssdsim_api_device_reset_stats", [ctypes.c_void_p], None),
            ("ssdsim_api_device_destroy", [ctypes.c_void_p], None)]:
        function = getattr(lib, name)
        function.argtypes = args
        function.restype = ret


@functools.lru_cache(maxsize=None)
def load(path: str | None = None) -> ctypes.CDLL:
    """The library, its prototypes set (once per path)."""
    where = Path(path) if path else lib_path()
    if not where.exists():
        raise SsdsimError(f"ssdsim: {where} not found: build it with `make"
                          " python` (or point $SSDSIM_LIB at it)")
    lib = ctypes.CDLL(str(where))
    lib.ssdsim_api_version.restype = ctypes.c_int
    if lib.ssdsim_api_version() != API_VERSION:
        raise SsdsimError(f"ssdsim: {where} has API version"
                          f" {lib.ssdsim_api_version()}, this package"
                          f" {API_VERSION}: rebuild with `make python`")
    _prototypes(lib)
    return lib


def take_string(lib: ctypes.CDLL, ptr: int | None) -> str:
    """A string the library handed over, freed."""
    if not ptr:
        return ""
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib.ssdsim_api_free(ptr)


def c_strings(items: list[str]) -> ctypes.Array[ctypes.c_char_p]:
    """An array of C strings (kept alive by the returned array)."""
    return (ctypes.c_char_p * (len(items) + 1))(
        *[s.encode() for s in items], None)


def _decode(raw: bytes | None) -> str | None:
    return raw.decode("utf-8", "replace") if raw is not None else None


def _event(v: _Value) -> Event:
    name = _decode(v.name)
    if v.type in _CONTAINERS:
        return name, _CONTAINERS[v.type], None
    if v.type == _BOOL:
        return name, "value", bool(v.uint)
    if v.type == _UINT:
        return name, "value", int(v.uint)
    if v.type == _REAL:
        return name, "value", float(v.real)
    if v.type == _TEXT:
        return name, "value", _decode(v.text)
    return name, "value", None


def take_result(lib: ctypes.CDLL, handle: int | None) -> Result:
    """A result the library handed over, read and freed."""
    if not handle:
        raise SsdsimError("ssdsim: out of memory")
    try:
        said = "".join(
            _decode(lib.ssdsim_result_message(handle, i)) or ""
            for i in range(lib.ssdsim_result_message_count(handle)))
        values = lib.ssdsim_result_values(handle)
        events = [_event(values[i])
                  for i in range(lib.ssdsim_result_value_count(handle))]
        return Result(lib.ssdsim_result_status(handle), said, events)
    finally:
        lib.ssdsim_result_free(handle)


def run(argv: list[str]) -> Result:
    """ssdsim with these arguments (no program name), in this process."""
    lib = load()
    args = ["ssdsim", *argv]
    return take_result(lib, lib.ssdsim_run(len(args), c_strings(args)))


def config_check(config: str | None, keys: list[str]) -> None:
    """Raise SsdsimError with ssdsim's message if this preset and these
    "key=value" strings are refused (no device is made)."""
    lib = load()
    err = _c_str_p()
    ret = lib.ssdsim_api_config_check(
        config.encode() if config is not None else None, len(keys),
        c_strings(keys), ctypes.byref(err))
    message = take_string(lib, err.value)
    if ret:
        raise SsdsimError(message or "ssdsim: configuration refused")
