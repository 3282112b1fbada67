"""replicated.gl's kernels through glc and through Triton's Gluon, each compared
with torch: which of the two is right where they disagree.

    python3 truth.py DIR

On the GPU machine. DIR holds work/libreplicated.so (replicated.gl's object
linked with libglrt, as run_gpu.sh links them) and kernels/replicated.py
(gl2gluon.py's translation). Prints one line per check: glc OK/WRONG,
triton OK/WRONG."""
import ctypes, importlib.util, os, sys
import torch
D = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
lib = ctypes.CDLL(os.path.join(D, "work", "libreplicated.so"))
spec = importlib.util.spec_from_file_location("replicated", os.path.join(D, "kernels", "replicated.py"))
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
torch.manual_seed(0)
dev = "cuda"
def glc(name, *ts):
    fn = getattr(lib, name); fn.restype = ctypes.c_int
    st = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    rc = fn(st, ctypes.c_uint(1), ctypes.c_uint(1), ctypes.c_uint(1), *[ctypes.c_uint64(t.data_ptr()) for t in ts])
    torch.cuda.synchronize(); assert rc == 0, rc
def tri(name, warps, *ts):
    getattr(mod, name)[(1,)](*ts, num_warps=warps); torch.cuda.synchronize()
def report(tag, ref, g, t):
    print(f"{tag}: glc {'OK' if torch.equal(g, ref) else 'WRONG %d' % int((g != ref).sum())}, "
          f"triton {'OK' if torch.equal(t, ref) else 'WRONG %d' % int((t != ref).sum())}")
x = torch.randint(-50, 51, (256,), dtype=torch.int32, device=dev)
ref = x.view(64, 4).sum(1, dtype=torch.int32)
g = [torch.full((64,), -1, dtype=torch.int32, device=dev) for _ in range(2)]
t = [torch.full((64,), -1, dtype=torch.int32, device=dev) for _ in range(2)]
glc("m_red_dw", x, *g); tri("m_red_dw", 4, x, *t)
report("m_red_dw reduce", ref, g[0], t[0]); report("m_red_dw sum", ref, g[1], t[1])
g = [torch.full((256,), -1, dtype=torch.int32, device=dev), torch.full((64,), -1, dtype=torch.int32, device=dev)]
t = [a.clone() for a in g]
glc("m_smem_dw", x, *g); tri("m_smem_dw", 4, x, *t)
report("m_smem_dw copy", x, g[0], t[0]); report("m_smem_dw reduce", ref, g[1], t[1])
xh = (torch.randint(-16, 17, (32,), device=dev) / 4).to(torch.float16)
g = [torch.full((32,), float('nan'), dtype=torch.float16, device=dev)] + [torch.full((1,), float('nan'), dtype=torch.float16, device=dev) for _ in range(2)]
t = [a.clone() for a in g]
glc("m_red_f", xh, *g); tri("m_red_f", 8, xh, *t)
refh = xh.double().sum().to(torch.float16).view(1)
report("m_red_f copy", xh, g[0], t[0]); report("m_red_f reduce", refh, g[1], t[1]); report("m_red_f sum", refh, g[2], t[2])
print("  values: glc", g[1].item(), g[2].item(), "triton", t[1].item(), t[2].item(), "ref", refh.item())
xl = torch.randint(-50, 51, (128,), dtype=torch.int64, device=dev)
m = xl.view(8, 16).t()  # [r, c] = x[r + 16 c]
refmax = torch.cummax(m, 1).values.t().reshape(-1)
refadd = torch.cumsum(m, 1).t().reshape(-1)
g = [torch.full((128,), -1, dtype=torch.int64, device=dev) for _ in range(2)]
t = [a.clone() for a in g]
glc("m_scan6", xl, *g); tri("m_scan6", 1, xl, *t)
report("m_scan6 max", refmax, g[0], t[0]); report("m_scan6 add", refadd, g[1], t[1])
