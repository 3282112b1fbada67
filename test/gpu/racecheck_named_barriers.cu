// compute-sanitizer racecheck and the shape of glc's warp_specialize
// dispatch loop, written in CUDA: 8 warps, warps 0-3 the default partition
// (thread 0 writes the call id and an argument slot), warps 4-7 the workers
// (warp 4 reads the slot, 5-7 idle), named barrier 15 over all 256 threads
// to release the workers and to join them. V selects extras: 1 setmaxnreg
// around the worker body, 2 the partitions' own named barriers (1 over the
// default's 128 threads, 2 over warp 4), which can only add ordering.
//
// On the H200 (CUDA 13.0's compute-sanitizer, 2026-12-01) racecheck is clean
// for V = 0 and 1 and reports RAW/WAR hazards on the slot for V = 2 and 3:
// with a second named barrier id in use it no longer orders the accesses
// by barrier 15. glc's ws_loop (test/gpu/ws.gl) has the same shape and the
// same report; its results are checked and right. Not part of run.sh:
//   nvcc -gencode arch=compute_90a,code=sm_90a -o nb racecheck_named_barriers.cu
//   compute-sanitizer --tool racecheck ./nb
#include <cstdio>
#define NB(id, n) asm volatile("barrier.sync %0, %1;" :: "r"(id), "r"(n) : "memory")
#define BS(id, n) asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory")
template <int V>
__global__ void __launch_bounds__(256, 1) k(int *out, int n) {
  __shared__ int state, arg;
  int w = threadIdx.x / 32;
  if (w < 4) {
    for (int i = 0; i < n; i++) {
      if (V & 2) BS(1, 128);
      if (threadIdx.x == 0) { arg = i; state = 0; }
      NB(15, 256);
      NB(15, 256);
    }
    if (threadIdx.x == 0) state = -1;
    NB(15, 256);
    return;
  }
  if (V & 1) asm volatile("setmaxnreg.dec.sync.aligned.u32 24;");
  int acc = 0;
  for (;;) {
    NB(15, 256);
    if (state != 0) break;
    if (V & 1) asm volatile("setmaxnreg.inc.sync.aligned.u32 48;");
    if (w == 4) {
      acc += arg;
      if (V & 2) BS(2, 32);
    }
    if (V & 1) asm volatile("setmaxnreg.dec.sync.aligned.u32 24;");
    NB(15, 256);
  }
  out[threadIdx.x] = acc;
}
int main() {
  int *d;
  if (cudaMalloc(&d, 256 * 4) != cudaSuccess) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  int h[256];
  k<0><<<1, 256>>>(d, 4); cudaDeviceSynchronize(); cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost); printf("V0 %d\n", h[128]);
  k<1><<<1, 256>>>(d, 4); cudaDeviceSynchronize(); cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost); printf("V1 %d\n", h[128]);
  k<2><<<1, 256>>>(d, 4); cudaDeviceSynchronize(); cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost); printf("V2 %d\n", h[128]);
  k<3><<<1, 256>>>(d, 4); cudaDeviceSynchronize(); cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost); printf("V3 %d\n", h[128]);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
