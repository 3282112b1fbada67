/* interp_glrt: launches a tl kernel of FILE (a test/gpu .py) under Triton's
 * interpreter; kinds has one letter per argument after it: p a pointer
 * (glrt_devptr), i int32_t, u uint32_t, l int64_t, L uint64_t, f a float
 * or double (promoted), t a const glrt_tensor_map *. */
#ifndef INTERP_GLRT_H
#define INTERP_GLRT_H

#include "glrt.h"

glrt_status interp_launch(const char *file, const char *kernel, unsigned gx, unsigned gy,
                          unsigned gz, const char *kinds, ...);

#endif
