/* --time-passes: the wall time of each stage and pass. */
#include "driver/driver.h"

void
drv_timer_lap(DrvTimer *t, const char *stage)
{
	if (!t->on)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (stage) {
		double ms = (now.tv_sec - t->last.tv_sec) * 1e3 + (now.tv_nsec - t->last.tv_nsec) / 1e6;
		buf_printf(&t->report, "%s%s %.3f ms", t->report.len ? ", " : "glc: time: ", stage, ms);
	}
	t->last = now;
}
