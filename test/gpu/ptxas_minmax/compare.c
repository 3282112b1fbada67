/* compare A.cubin B.cubin COUNT: runs kernels f0..f<COUNT-1> of gen.py's
 * PTX, built twice (ptxas -O3 and -O0, or with and without --rewrite), on
 * the same 8192 x 8 input words (small values, any values, and INT_MIN,
 * INT_MAX, 0, +-1, +-2 by turns) and prints the kernels whose outputs
 * differ, then "A: N of COUNT kernels differ". Outputs are poisoned with a
 * different word for each build. Not part of run.sh; on a GPU machine:
 *   for o in 3 0; do ptxas -arch=sm_90a -O$o k.ptx -o k$o.cubin; done
 *   gcc -O2 -o compare compare.c -I/usr/local/cuda/include -lcuda
 *   ./compare k3.cubin k0.cubin 400
 * Results of 2026-12-01 (CUDA 13.0): bench/RESULTS.md, fifth session. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                             \
  do {                                                                          \
    CUresult r_ = (call);                                                       \
    if (r_ != CUDA_SUCCESS) {                                                   \
      const char *s_ = "?";                                                     \
      cuGetErrorString(r_, &s_);                                                \
      fprintf(stderr, "%s: %s\n", #call, s_);                                   \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

enum { THREADS = 8192, BLOCK = 128 };

/* Runs kernel `name` of m on x into y (poisoned first) and downloads y. */
static void run(CUmodule m, const char *name, CUdeviceptr x, CUdeviceptr y,
                unsigned poison, int *out) {
  CUfunction f;
  void *args[2] = {&x, &y};
  CHECK(cuModuleGetFunction(&f, m, name));
  CHECK(cuMemsetD32(y, poison, THREADS));
  CHECK(cuLaunchKernel(f, THREADS / BLOCK, 1, 1, BLOCK, 1, 1, 0, 0, args, 0));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out, y, THREADS * sizeof *out));
}

int main(int argc, char **argv) {
  static const int special[] = {0, 1, -1, 2, -2, 0x7fffffff, (int)0x80000000,
                                0x7ffffffe, (int)0x80000001};
  CUdevice dev;
  CUcontext ctx;
  CUmodule ma, mb;
  CUdeviceptr dx, dya, dyb;
  int *x, *ya, *yb, count, differ = 0;
  if (argc != 4) {
    fprintf(stderr, "usage: compare A.cubin B.cubin COUNT\n");
    return 2;
  }
  count = atoi(argv[3]);
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
  CHECK(cuModuleLoad(&ma, argv[1]));
  CHECK(cuModuleLoad(&mb, argv[2]));
  x = malloc(THREADS * 8 * sizeof *x);
  ya = malloc(THREADS * sizeof *ya);
  yb = malloc(THREADS * sizeof *yb);
  if (!x || !ya || !yb) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  srand(7);
  for (int i = 0; i < THREADS * 8; i++) {
    int kind = (i / 8) % 3;
    x[i] = kind == 0 ? rand() % 9 - 4
         : kind == 1 ? (int)((unsigned)rand() * 2u + (unsigned)(rand() & 1))
                     : special[rand() % 9];
  }
  CHECK(cuMemAlloc(&dx, THREADS * 8 * sizeof *x));
  CHECK(cuMemAlloc(&dya, THREADS * sizeof *ya));
  CHECK(cuMemAlloc(&dyb, THREADS * sizeof *yb));
  CHECK(cuMemcpyHtoD(dx, x, THREADS * 8 * sizeof *x));
  for (int k = 0; k < count; k++) {
    char name[32];
    int bad = 0, first = -1;
    snprintf(name, sizeof name, "f%d", k);
    run(ma, name, dx, dya, 0x5a5a5a5au, ya);
    run(mb, name, dx, dyb, 0x3c3c3c3cu, yb);
    for (int t = 0; t < THREADS; t++)
      if (ya[t] != yb[t] && bad++ == 0)
        first = t;
    if (bad) {
      differ++;
      printf("f%d: %d of %d threads differ (thread %d: %d against %d)\n", k, bad,
             THREADS, first, ya[first], yb[first]);
    }
  }
  printf("%s: %d of %d kernels differ\n", argv[1], differ, count);
  return 0;
}
