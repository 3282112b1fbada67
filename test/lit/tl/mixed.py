# One file, both languages (test/gpu/tl_mix.py, which test_tl_mix.c runs on
# the GPU): the Triton GEMM, its port with a Gluon main loop calling the
# same @triton.jit epilogue, and a Triton kernel calling a @gluon.jit helper.
# In the port the accumulator's NVMMA layout flows into the Triton epilogue,
# which keeps Triton's store layout (the C tile's coalesced #blocked) and
# converts once, as the Triton kernel does; the Gluon helper's layout
# becomes the Triton kernel's, the conversion free.
# RUN: %glc %S/../../gpu/tl_mix.py -n matmul_gl -s "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --emit=ir | FileCheck %s --check-prefix=GL
# GL-DAG: #[[MMA:mma[0-9]*]] = NVMMADistributedLayout([3,0],[4,1],[16,128,16]) on [128, 128]
# GL-DAG: #[[C:blocked[0-9]*]] = BlockedLayout([1,8],[2,16],[4,1],[1,0]) on [128, 128]
# GL: kernel matmul_gl
# GL: for $
# GL: smem_store
# GL: smem_store
# GL: fence_async_shared
# GL: warpgroup_mma {{.*}} : tensor<f32, [128, 128], #[[MMA]]>
# GL: }
# GL: cast {{.*}} : tensor<f16, [128, 128], #[[MMA]]>
# GL-NEXT: convert_layout soft plan=shared {{.*}} : tensor<f16, [128, 128], #[[C]]>
# GL-NEXT: store
# RUN: %glc %S/../../gpu/tl_mix.py -n matmul_tl -s "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --emit=ir | FileCheck %s --check-prefix=TL
# TL-DAG: #[[MMA:mma[0-9]*]] = NVMMADistributedLayout([3,0],[4,1],[16,128,16]) on [128, 128]
# TL-DAG: #[[C:blocked[0-9]*]] = BlockedLayout([1,8],[2,16],[4,1],[1,0]) on [128, 128]
# TL: warpgroup_mma {{.*}} : tensor<f32, [128, 128], #[[MMA]]>
# TL: convert_layout soft plan=shared {{.*}} : tensor<f16, [128, 128], #[[C]]>
# TL-NEXT: store
# RUN: %glc %S/../../gpu/tl_mix.py -n scale_tl -s "*fp32:16, *fp32:16, i32, 1024" --emit=ir | FileCheck %s --check-prefix=SC
# SC: #[[B:blocked[0-9]*]] = BlockedLayout([4],[32],[4],[0]) on [1024]
# SC: load {{.*}} : tensor<f32, [1024], #[[B]]>
# SC-NEXT: convert_layout plan=free
# SC: store
# RUN: %glc %S/../../gpu/tl_mix.py -n matmul_gl -s "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64" -c -o %t.gl.o
# RUN: %glc %S/../../gpu/tl_mix.py -n matmul_tl -s "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64" -c -o %t.tl.o
# RUN: %glc %S/../../gpu/tl_mix.py -n scale_tl -s "*fp32:16, *fp32:16, i32, 1024" -c -o %t.sc.o
