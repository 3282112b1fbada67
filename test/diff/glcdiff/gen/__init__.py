"""The seeded generator of random valid .gl kernels: generate (the driver and the
files it writes), kernel (the kernel under construction), base_ops and ops (the
operations it draws), layouts, ranges, promotion (what keeps every kernel valid
and exact) and features (the switches that turn a feature off)."""
