"""The `gl` namespace of a kernel translated by gl2tl.py, for Triton's interpreter.

gl2tl.py turns a .gl kernel into triton.language code that runs under Triton's
interpreter (numpy, no compiler, no layouts): the third opinion when glc and
Triton's Gluon disagree. Gluon re-exports most of triton.language, so `gl.NAME`
resolves to `tl.NAME` unless this module defines it. What it defines is what
has no triton.language twin:
  - layouts: every layout class builds an inert object (values do not depend
    on layouts); convert_layout, set_auto_layout, thread_barrier are no-ops;
  - arange/full/zeros/histogram: the same calls without `layout=`;
  - shared memory: a numpy array per allocation; index/slice/permute views
    read and write through to it, and _reinterpret bitcasts element by element
    (the generator reinterprets only to a dtype of the same width, same shape
    and layout).
The interpreter patches triton.language while a kernel runs, so every `tl.X`
here is looked up at call time.
"""
import triton.language as tl
from triton.runtime.interpreter import TensorHandle


class Layout:
    """Any Gluon layout: the interpreter needs none."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    @staticmethod
    def with_identity_for(*args, **kwargs):   # PaddedSharedLayout's constructor
        """PaddedSharedLayout.with_identity_for: an inert layout."""
        return Layout()

    @staticmethod
    def get_default_for(*args, **kwargs):     # NVMMASharedLayout's
        """NVMMASharedLayout.get_default_for: an inert layout."""
        return Layout()


class Smem:
    """A shared-memory buffer or a view of one: `arr` is a numpy view of the
    allocation's storage; `dtype` the element type seen through this view; `raw`
    the stored element type (they differ only after _reinterpret)."""

    def __init__(self, arr, dtype, raw):
        self.arr, self.dtype, self.raw = arr, dtype, raw

    @property
    def shape(self):
        """The view's shape, as a list."""
        return list(self.arr.shape)

    def store(self, value):
        """Write a tensor (broadcast to the view's shape) into the view."""
        value = tl.broadcast_to(value, self.shape) if value.shape != self.shape else value
        if self.dtype != self.raw:
            value = value.to(self.raw, bitcast=True)
        self.arr[...] = value.handle.data

    def load(self, layout=None):
        """The view's contents as a tensor (the layout is ignored)."""
        handle = TensorHandle(self.arr.copy(), self.raw)
        t = tl.core.tensor(handle, tl.block_type(self.raw, self.shape))
        return t.to(self.dtype, bitcast=True) if self.dtype != self.raw else t

    def index(self, i):
        """The view of element i of the first dimension."""
        return Smem(self.arr[int(i)], self.dtype, self.raw)

    def slice(self, start, length, dim=0):
        """The view of [start, start + length) along dim."""
        sel = [slice(None)] * self.arr.ndim
        sel[dim] = slice(int(start), int(start) + int(length))
        return Smem(self.arr[tuple(sel)], self.dtype, self.raw)

    def permute(self, order):
        """The view with dimensions in `order`."""
        return Smem(self.arr.transpose([int(o) for o in order]), self.dtype, self.raw)

    def _reinterpret(self, dtype, shape, layout=None):
        if dtype.primitive_bitwidth != self.raw.primitive_bitwidth or list(shape) != self.shape:
            raise NotImplementedError("_reinterpret to another width or shape")
        return Smem(self.arr, dtype, self.raw)


class _Gl:
    """The namespace a translated kernel calls `gl`."""

    BlockedLayout = SliceLayout = DistributedLinearLayout = DotOperandLayout = Layout
    NVMMADistributedLayout = NVMMASharedLayout = SwizzledSharedLayout = Layout
    SharedLinearLayout = PaddedSharedLayout = AutoLayout = CoalescedLayout = Layout

    @staticmethod
    def arange(start, end, layout=None):
        return tl.arange(start, end)

    @staticmethod
    def full(shape, value, dtype, layout=None):
        return tl.full(shape, value, dtype)

    @staticmethod
    def zeros(shape, dtype, layout=None):
        return tl.zeros(shape, dtype)

    @staticmethod
    def histogram(x, num_bins, mask=None, layout=None):
        return tl.histogram(x, num_bins, mask=mask)

    @staticmethod
    def convert_layout(x, layout=None, assert_trivial=False):
        return x

    @staticmethod
    def set_auto_layout(x, layout=None):
        return x

    @staticmethod
    def thread_barrier():
        return None

    @staticmethod
    def allocate_shared_memory(dtype, shape, layout=None, value=None):
        import numpy as np
        probe = tl.zeros([1], dtype)   # the interpreter's numpy type for dtype
        buf = Smem(np.zeros([int(s) for s in shape], probe.handle.data.dtype), dtype, dtype)
        if value is not None:
            buf.store(value)
        return buf

    def __getattr__(self, name):
        return getattr(tl, name)


gl = _Gl()
