/* Does a Hopper driver encode TMA maps of packed 4-bit data: 16U4_ALIGN16B
 * (16 fp4 values in 8 bytes and 8 bytes of padding, the global format that
 * NVMMASharedLayout(fp4_padded=True) describes in shared memory) and
 * 16U4_ALIGN8B? A u8 map of the same shape is the control. The parameters
 * meet cuda.h's rules for the packed types (32-byte aligned address,
 * globalDim[0] a multiple of 128, strides multiples of 32, boxDim[0] = 128,
 * 128-byte swizzle, load only).
 *
 * On the H200 (driver 580, CUDA 13.0, 2026-12-01): UINT8 CUDA_SUCCESS, both
 * packed types CUDA_ERROR_INVALID_VALUE: the format is Blackwell's, which is
 * why glc refuses TMA descriptors of fp4_padded=True buffers (registers
 * still read and write them; docs/coverage.md). Not part of run.sh:
 *   gcc -o tm tma_packed_types.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64/stubs -lcuda && ./tm */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                             \
  do {                                                                          \
    CUresult r_ = (call);                                                       \
    if (r_ != CUDA_SUCCESS) {                                                   \
      fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                       \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

int main(void) {
  CUdevice dev; CUcontext ctx; CUdeviceptr p; int maj, min;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
  CHECK(cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK(cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CHECK(cuMemAlloc(&p, 1 << 20));
  struct { CUtensorMapDataType t; const char *name; cuuint64_t dim0; cuuint32_t box0; } cases[] = {
    {CU_TENSOR_MAP_DATA_TYPE_UINT8, "UINT8", 256, 128},
    {CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "16U4_ALIGN16B", 256, 128},
    {CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, "16U4_ALIGN8B", 256, 128},
  };
  for (int i = 0; i < 3; i++) {
    CUtensorMap m; cuuint64_t dims[2] = {cases[i].dim0, 64}; cuuint64_t strides[1] = {256};
    cuuint32_t box[2] = {cases[i].box0, 8}, es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&m, cases[i].t, 2, (void *)p, dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    const char *s = NULL; cuGetErrorName(r, &s);
    printf("sm_%d%d %s: %s\n", maj, min, cases[i].name, s ? s : "?");
  }
  return 0;
}
