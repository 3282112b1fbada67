# glc's tl prelude: tl.target_info, the target glc compiles for (sm_90a,
# CUDA), as compile-time functions.
import triton


@triton.constexpr_function
def current_target():
    return triton.runtime.driver.active.get_current_target()


@triton.constexpr_function
def is_cuda():
    return True


@triton.constexpr_function
def cuda_capability_geq(major, minor=0):
    return major < 9 or (major == 9 and minor <= 0)


@triton.constexpr_function
def is_hip():
    return False


@triton.constexpr_function
def is_hip_cdna3():
    return False


@triton.constexpr_function
def is_hip_cdna4():
    return False
