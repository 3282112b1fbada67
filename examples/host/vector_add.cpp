// A C++ program that launches examples/vector_add.gl (f16) through k.o/k.h:
// the generated header is C, wrapped in extern "C", and needs no CUDA
// headers. Exits 0 when the sums are right, 77 without a GPU, 1 otherwise.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "glrt.h"
#include "vector_add.h"

namespace {

struct NoGpu : std::runtime_error {
	using std::runtime_error::runtime_error;
};

void
check(glrt_status st, const char *what)
{
	if (st == GLRT_SUCCESS)
		return;
	std::string msg = std::string(what) + ": " + glrt_status_text(st) + ": " +
	                  glrt_last_error();
	if (st == GLRT_ERROR_NO_DRIVER || st == GLRT_ERROR_NO_DEVICE)
		throw NoGpu(msg);
	throw std::runtime_error(msg);
}

// A device buffer freed by its destructor.
struct DeviceBuffer {
	glrt_devptr ptr = 0;
	explicit DeviceBuffer(size_t bytes) { check(glrt_malloc(&ptr, bytes), "glrt_malloc"); }
	~DeviceBuffer() { glrt_free(ptr); }
	DeviceBuffer(const DeviceBuffer &) = delete;
	DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

// f16 bit patterns of small integers (exact in binary16): 1024 + k has
// exponent 10 and mantissa k.
uint16_t
half_of(int v)
{
	if (v == 0)
		return 0;
	uint16_t sign = v < 0 ? 0x8000 : 0;
	unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
	while ((a >> e) > 1)
		e++;
	return (uint16_t)(sign | ((e + 15) << 10) | ((a << (10 - e)) & 0x3ff));
}

}  // namespace

int
main()
{
	const int n = 99999, block = 4096;  // block: vector_add_f16's default
	std::vector<uint16_t> x(n), y(n), z(n), want(n);
	for (int i = 0; i < n; i++) {
		int a = i % 500 - 250, b = i % 33;
		x[i] = half_of(a);
		y[i] = half_of(b);
		want[i] = half_of(a + b);
	}
	try {
		size_t bytes = n * sizeof(uint16_t);
		DeviceBuffer dx(bytes), dy(bytes), dz(bytes);
		check(glrt_memcpy_htod(dx.ptr, x.data(), bytes), "glrt_memcpy_htod");
		check(glrt_memcpy_htod(dy.ptr, y.data(), bytes), "glrt_memcpy_htod");
		check(glrt_memset_d8(dz.ptr, 0xff, bytes), "glrt_memset_d8");
		check(vector_add_f16(nullptr, (n + block - 1) / block, 1, 1, dx.ptr, dy.ptr,
		                     dz.ptr, n), "vector_add_f16");
		check(glrt_memcpy_dtoh(z.data(), dz.ptr, bytes), "glrt_memcpy_dtoh");
	} catch (const NoGpu &e) {
		std::fprintf(stderr, "%s\n", e.what());
		return 77;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "%s\n", e.what());
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (z[i] != want[i]) {
			std::fprintf(stderr, "z[%d] = 0x%04x, want 0x%04x\n", i, z[i], want[i]);
			return 1;
		}
	std::printf("vector_add (C++): %d f16 sums ok\n", n);
	return 0;
}
