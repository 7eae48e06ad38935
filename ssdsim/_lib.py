"""The binding to libssdsim.so (tools/ssdsim/ssdsim_api.h), with ctypes.

Owns finding the library ($SSDSIM_LIB, else build/lib/libssdsim.so of
this repository, built by `make python`), its functions' prototypes,
turning its malloc'd strings into Python strings, and the calls that are
one C function each (a command line run, a configuration check).
"""
from __future__ import annotations

import ctypes
import functools
import os
from pathlib import Path

from ssdsim.errors import SsdsimError
from ssdsim.paths import LIBSSDSIM

API_VERSION = 1


def lib_path() -> Path:
    """Where the library is looked for: $SSDSIM_LIB or the build tree."""
    env = os.environ.get("SSDSIM_LIB")
    return Path(env) if env else LIBSSDSIM


_c_str_p = ctypes.c_void_p  # a malloc'd char * the caller frees
_u64 = ctypes.c_uint64


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
    lib.ssdsim_api_run.argtypes = [ctypes.c_int,
                                   ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.POINTER(_c_str_p),
                                   ctypes.POINTER(_c_str_p)]
    lib.ssdsim_api_run.restype = ctypes.c_int
    lib.ssdsim_api_free.argtypes = [ctypes.c_void_p]
    lib.ssdsim_api_free.restype = None
    lib.ssdsim_api_config_check.argtypes = [
        ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
        ctypes.POINTER(_c_str_p)]
    lib.ssdsim_api_config_check.restype = ctypes.c_int
    lib.ssdsim_api_device_create.argtypes = [
        ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
        ctypes.c_int, ctypes.POINTER(_c_str_p)]
    lib.ssdsim_api_device_create.restype = ctypes.c_void_p
    lib.ssdsim_api_device_submit.argtypes = [
        ctypes.c_void_p, ctypes.c_uint, _u64, _u64, _u64, ctypes.c_char_p,
        ctypes.POINTER(_u64), ctypes.POINTER(_u64), ctypes.POINTER(_c_str_p)]
    lib.ssdsim_api_device_submit.restype = ctypes.c_int
    lib.ssdsim_api_device_stats.argtypes = [ctypes.c_void_p]
    lib.ssdsim_api_device_stats.restype = _c_str_p
    lib.ssdsim_api_device_reset_stats.argtypes = [ctypes.c_void_p]
    lib.ssdsim_api_device_reset_stats.restype = None
    lib.ssdsim_api_device_destroy.argtypes = [ctypes.c_void_p]
    lib.ssdsim_api_device_destroy.restype = None
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


def run_argv(argv: list[str]) -> tuple[int, str, str]:
    """ssdsim with these arguments (no program name): its exit status,
    stdout and stderr."""
    lib = load()
    args = ["ssdsim", *argv]
    out, err = _c_str_p(), _c_str_p()
    status = lib.ssdsim_api_run(len(args), c_strings(args),
                                ctypes.byref(out), ctypes.byref(err))
    return status, take_string(lib, out.value), take_string(lib, err.value)


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
