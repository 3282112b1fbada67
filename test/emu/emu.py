"""Runs a glc kernel on the CPU: a check of where code generation puts data
(shared-memory addresses, MMA fragments), for kernels that only load and
store global and shared memory, synchronize with barriers and multiply with
mma.sync m16n8k16 f16 into f32.

    python3 emu.py KERNEL.ll KERNEL NTHREADS DRIVER.c [CFLAG...]

KERNEL.ll is `glc --emit=llvm --kernel KERNEL`. Its NVPTX IR is rewritten
for the host (address spaces dropped; the thread id, barriers, setmaxnreg and the
warp shuffle that makes the warp id uniform become plain code; each inline-asm
global access and mma.sync a function), linked with DRIVER.c (clang) and
run with LLVM 22's lli ($LLVM_BIN). The driver defines `int emu_tid(void)`, `void emu_mma(...)`
when the kernel multiplies, and main, which calls the kernel for every
thread of one CTA, one after another, twice: the second time, loads after a
barrier see what every thread stored the first time, and emu_mma has every
lane's fragments. The exit status is the driver's.
"""
import os
import re
import subprocess
import sys
import tempfile

LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")


def access_fn(name, ret, text):
    """A predicated global load or store `@$P ld/st.global[.vN].bB ...`."""
    m = re.match(r"@\$\d+ (ld|st)(?:\.volatile)?\.global\.(?:v(\d+)\.)?b(\d+) ", text)
    if not m:
        sys.exit("emu: unsupported inline asm: " + text)
    op, n, t = m.group(1), int(m.group(2) or 1), "i" + m.group(3)
    addr = ["  %%a%d = getelementptr %s, ptr %%p, i32 %d" % (i, t, i) for i in range(n)]
    if op == "st":
        params = ["ptr %p"] + ["%s %%v%d" % (t, i) for i in range(n)] + ["i1 %c"]
        body = addr + ["  store %s %%v%d, ptr %%a%d" % (t, i, i) for i in range(n)]
        return "define void @%s(%s) {\n  br i1 %%c, label %%y, label %%n\ny:\n%s\n" \
               "  br label %%n\nn:\n  ret void\n}" % (name, ", ".join(params), "\n".join(body))
    params = ["ptr %p", "i1 %c"] + ["%s %%o%d" % (t, i) for i in range(n)]
    loads = addr + ["  %%v%d = load %s, ptr %%a%d" % (i, t, i) for i in range(n)]

    def result(prefix):
        if n == 1:
            return [], "%%%s0" % prefix
        lines, cur = [], "undef"
        for i in range(n):
            lines.append("  %%%sx%d = insertvalue %s %s, %s %%%s%d, %d"
                         % (prefix, i, ret, cur, t, prefix, i, i))
            cur = "%%%sx%d" % (prefix, i)
        return lines, cur
    got, gv = result("v")
    old, ov = result("o")
    return "define %s @%s(%s) {\n  br i1 %%c, label %%y, label %%n\ny:\n%s\n  ret %s %s\n" \
           "n:\n%s\n  ret %s %s\n}" % (ret, name, ", ".join(params), "\n".join(loads + got),
                                      ret, gv, "\n".join(old), ret, ov)


def mma_fn(name, ret, text):
    """mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 as emu_mma(c, a0..a3, b0, b1)."""
    if not text.startswith("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "):
        sys.exit("emu: unsupported mma: " + text)
    params = ["float %%c%d" % i for i in range(4)] + ["i32 %%a%d" % i for i in range(4)] + \
             ["i32 %b0", "i32 %b1"]
    body = ["  %p = alloca [4 x float]"]
    for i in range(4):
        body += ["  %%q%d = getelementptr float, ptr %%p, i32 %d" % (i, i),
                 "  store float %%c%d, ptr %%q%d" % (i, i)]
    body.append("  call void @emu_mma(ptr %p, i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %b0, "
                "i32 %b1)")
    cur = "undef"
    for i in range(4):
        body += ["  %%r%d = load float, ptr %%q%d" % (i, i),
                 "  %%s%d = insertvalue %s %s, float %%r%d, %d" % (i, ret, cur, i, i)]
        cur = "%%s%d" % i
    return "define %s @%s(%s) {\n%s\n  ret %s %s\n}" % (ret, name, ", ".join(params),
                                                        "\n".join(body), ret, cur)


def rewrite(src):
    src = re.sub(r"^target (datalayout|triple).*$", "", src, flags=re.M)
    src = re.sub(r" addrspace\(\d+\)", "", src).replace("ptx_kernel ", "")
    fns = {}

    def asm(m):
        ret, text, args = m.group(1), m.group(2), m.group(4)
        if (ret, text) not in fns:
            fns[ret, text] = "emu_asm%d" % len(fns)
        return "call %s @%s(%s)" % (ret, fns[ret, text], args)
    src = re.sub(r'call (\S+|\{[^}]*\}) asm sideeffect "([^"]*)", "([^"]*)"\(([^)]*)\)', asm, src)
    src = re.sub(r"call (?:noundef )?(?:range\([^)]*\) )?i32 "
                 r"@llvm\.nvvm\.read\.ptx\.sreg\.tid\.x\(\)", "call i32 @emu_tid()", src)
    src = re.sub(r"call (?:noundef )?(?:range\([^)]*\) )?i32 "
                 r"@llvm\.nvvm\.read\.ptx\.sreg\.n?ctaid\.[xyz]\(\)", "call i32 @emu_zero()", src)
    # the warp id made uniform: shfl.sync.idx(mask, v, 0, 31) is v
    src = re.sub(r"(?:tail )?call i32 @llvm\.nvvm\.shfl\.sync\.idx\.i32\(i32 [^,]*, i32 ([^,]*), "
                 r"i32 0, i32 31\)", r"add i32 \1, 0", src)
    src = re.sub(r"call void @llvm\.nvvm\.(?:barrier|setmaxnreg)[^(]*\([^)]*\)",
                 "call void @emu_nop()", src)
    src = re.sub(r"^declare .*@llvm\.nvvm\..*$", "", src, flags=re.M)
    if "@llvm.nvvm." in src:
        sys.exit("emu: an NVVM intrinsic it does not know: " +
                 re.search(r"@llvm\.nvvm\.[a-z0-9_.]*", src).group(0))
    out = [src, "declare i32 @emu_tid()", "define i32 @emu_zero() { ret i32 0 }",
           "define void @emu_nop() { ret void }"]
    for (ret, text), name in fns.items():
        if text.startswith("mma.sync"):
            out.append(mma_fn(name, ret, text))
        else:
            out.append(access_fn(name, ret, text))
    if any(t.startswith("mma.sync") for (_, t) in fns):
        out.append("declare void @emu_mma(ptr, i32, i32, i32, i32, i32, i32)")
    return "\n".join(out)


def main():
    ll, kernel, nthreads, driver = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as d:
        k, dr, both = (os.path.join(d, n) for n in ("k.ll", "d.ll", "all.ll"))
        with open(k, "w") as f:
            f.write(rewrite(open(ll).read()))
        subprocess.check_call(["clang", "-S", "-emit-llvm", "-O1", "-DNTHREADS=" + nthreads,
                               "-DKERNEL=" + kernel] + sys.argv[5:] + [driver, "-o", dr])
        subprocess.check_call([os.path.join(LLVM_BIN, "llvm-link"), k, dr, "-S", "-o", both])
        sys.exit(subprocess.call([os.path.join(LLVM_BIN, "lli"), both]))


if __name__ == "__main__":
    main()
