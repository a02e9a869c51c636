"""Unaligned integer loads from a byte array for the compiled scanners (numba intrinsics).

A big-endian field read byte by byte costs one load, shift and or a byte; these read it with one
unaligned load (and a byte swap where the order differs from the machine's little-endian one), as
C code reading packet headers does. The caller checks that the bytes lie inside the array.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _loader(width: int, swap: bool):
    ity = ir.IntType(width)

    @intrinsic
    def load(typingctx, arr, idx):
        if not (isinstance(arr, types.Array) and arr.dtype == types.uint8 and isinstance(idx, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            ary = context.make_array(sig.args[0])(context, builder, args[0])
            i = context.cast(builder, args[1], sig.args[1], types.intp)
            v = builder.load(builder.gep(ary.data, [i], source_etype=ir.IntType(8)), align=1, typ=ity)
            if swap:
                v = builder.call(builder.module.declare_intrinsic("llvm.bswap", [ity]), [v])
            return builder.zext(v, ir.IntType(64)) if width < 64 else v

        return types.uint64(arr, idx), codegen

    return load


be16, be32, be64 = _loader(16, True), _loader(32, True), _loader(64, True)
le32, le64 = _loader(32, False), _loader(64, False)
