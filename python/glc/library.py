"""A glc-built shared library and its manifest (docs/building.md: `--manifest`).

The manifest lists each launcher: its C symbol, whether the caller gives the
grid, and its parameters with their C types. Library binds each through
ctypes; a call converts Python values to those types, runs the launcher and
raises GlrtError (with libglrt's message) when it does not return
GLRT_SUCCESS.
"""
import ctypes
import json
import struct

_C_TYPES = {
    "glrt_devptr": ctypes.c_uint64,
    "bool": ctypes.c_bool,
    "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8,
    "int16_t": ctypes.c_int16, "uint16_t": ctypes.c_uint16,
    "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
    "float": ctypes.c_float, "double": ctypes.c_double,
    "const glrt_tensor_map *": ctypes.c_void_p,
}


class GlrtError(RuntimeError):
    """A launcher returned a glrt_status other than GLRT_SUCCESS."""

    def __init__(self, kernel, status, message):
        super().__init__("%s: %s" % (kernel, message))
        self.kernel = kernel
        self.status = status


def _half_bits(value, dtype):
    """An f16 or bf16 scalar as the uint16_t bits the launcher takes."""
    if isinstance(value, int) and not isinstance(value, bool) and dtype not in ("f16", "bf16"):
        return value
    if dtype == "f16":
        return struct.unpack("<H", struct.pack("<e", float(value)))[0]
    bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16   # round to nearest even


class Kernel:
    """One launcher (or dispatcher) of a library, from its manifest entry."""

    def __init__(self, lib, entry):
        self.name = entry["kernel"]
        self.symbol = entry["symbol"]
        self.caller_grid = entry["grid"] == "caller"
        self.params = entry["params"]
        self.threads = entry.get("threads")
        for p in self.params:
            if p["ctype"] not in _C_TYPES:
                raise ValueError("%s: parameter %s has C type %s, which glc's Python package "
                                 "does not know" % (self.symbol, p["name"], p["ctype"]))
        fn = getattr(lib._dll, self.symbol)
        args = [ctypes.c_void_p]
        if self.caller_grid:
            args += [ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
        args += [_C_TYPES[p["ctype"]] for p in self.params]
        fn.argtypes = args
        fn.restype = ctypes.c_int
        self._fn = fn
        self._lib = lib

    def __call__(self, stream, grid, *args):
        """Launches on stream (a CUstream as an int, 0 or None: the default
        stream) with grid (x, y, z; None when the kernel computes it) and the
        kernel's arguments in the manifest's order (pointers as ints)."""
        if len(args) != len(self.params):
            raise TypeError("%s takes %d arguments (%s), not %d" % (
                self.name, len(self.params), ", ".join(p["name"] for p in self.params),
                len(args)))
        call = [ctypes.c_void_p(stream or None)]
        if self.caller_grid:
            if grid is None or len(grid) != 3:
                raise TypeError("%s: give the grid as (x, y, z)" % self.name)
            call += [int(g) for g in grid]
        elif grid is not None:
            raise TypeError("%s computes its grid; pass None" % self.name)
        for p, a in zip(self.params, args):
            if p["ctype"] == "uint16_t" and p["dtype"] in ("f16", "bf16"):
                a = _half_bits(a, p["dtype"])
            call.append(a)
        status = self._fn(*call)
        if status != 0:
            raise GlrtError(self.name, status, self._lib.last_error(status))


class Library:
    """A shared library of glc-built kernels (objects, glc link's dispatchers
    and libglrt linked together) and its manifest."""

    def __init__(self, so_path, manifest_path):
        self._dll = ctypes.CDLL(so_path)
        self._dll.glrt_last_error.restype = ctypes.c_char_p
        self._dll.glrt_status_text.restype = ctypes.c_char_p
        self._dll.glrt_status_text.argtypes = [ctypes.c_int]
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if manifest.get("glc_manifest") != 1:
            raise ValueError("%s is not a glc manifest (version 1)" % manifest_path)
        # by launcher symbol: a library's dispatchers are named after their
        # kernels, an object's specializations (NAME_0, ...) have names of
        # their own
        self.kernels = {}
        for entry in manifest["kernels"]:
            k = Kernel(self, entry)
            self.kernels[k.symbol] = k

    def last_error(self, status):
        msg = self._dll.glrt_last_error()
        text = self._dll.glrt_status_text(status).decode()
        return "%s: %s" % (text, msg.decode()) if msg else text

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError(name)
