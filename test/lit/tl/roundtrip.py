# The IR of tl kernels reads back as it was printed (soft conversions keep
# their `soft` flag), and the passes change nothing on it: layout-infer
# and soft-clean are idempotent.
# RUN: %glc %S/dot.py -n matmul -s "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --emit=ir -o %t.mm.ir
# RUN: %glc %t.mm.ir --emit=ir -o %t.mm2.ir
# RUN: diff %t.mm.ir %t.mm2.ir
# RUN: %glc %S/stdlib.py -n k_sort -s "*fp32, *fp32, 4, 64, 1" --emit=ir -o %t.sort.ir
# RUN: %glc %t.sort.ir --emit=ir -o %t.sort2.ir
# RUN: diff %t.sort.ir %t.sort2.ir
# RUN: %glc %S/coalesce.py -n trans -s "*fp32, *fp32, 32" --emit=ir | FileCheck %s
# CHECK: convert_layout soft plan=shared
