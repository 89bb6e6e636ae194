/* SPDX-License-Identifier: MIT */
/*
 * sdaa_internal.h - what the parts of libsdaa share; not installed.
 */
#ifndef SDAA_INTERNAL_H
#define SDAA_INTERNAL_H

#include "sdaa_runtime.h"
#include "drm/swai_accel.h"

/* Only the functions of sdaa_runtime.h are exported (-fvisibility=hidden). */
#define SDAA_API __attribute__((visibility("default")))

/* The most logical devices SDAA_VISIBLE_DEVICES can name. */
#define SDAA_MAX_DEVICES 256

/* One SW-AI card, opened for the life of the process. */
struct sdaa_card {
	int minor;				/* N of /dev/accel/accelN */
	int fd;
	struct drm_swai_query_device q;		/* as of initialisation */
};

/* One logical device: a core group of a card. */
struct sdaa_device {
	struct sdaa_card *card;
	int cg;
};

/* Process-wide state, built once by sdaa_runtime() (sdaa_enum.c). */
struct sdaa_runtime {
	sdaaError_t init_error;		/* sdaaSuccess or why there is nothing */
	int uapi_major, uapi_minor;	/* of the driver, 0 if none answered */
	int ncards;
	struct sdaa_card *cards;
	int ndevices;			/* visible logical devices */
	struct sdaa_device *devices;	/* in SDAA_VISIBLE_DEVICES order */
};

const struct sdaa_runtime *sdaa_runtime(void);
/* Close the cards and forget them (sdaa_lib.c's teardown). */
void sdaa_enum_fini(void);
/* What every call naming a device checks first: discovery worked, in range. */
sdaaError_t sdaa_device_valid(int device);

/* Record @err as the calling thread's last error (unless success); return it. */
sdaaError_t sdaa_error(sdaaError_t err);

/*
 * Parse SDAA_VISIBLE_DEVICES.  @s lists device numbers below @total,
 * separated by commas (blanks allowed); as with CUDA_VISIBLE_DEVICES the list
 * ends at the first entry that is not such a number or repeats one.  Writes
 * at most @max numbers to @out and returns how many.
 */
int sdaa_parse_visible(const char *s, int total, int *out, int max);

enum sdaa_log_level {
	SDAA_LOG_OFF,
	SDAA_LOG_ERROR,
	SDAA_LOG_WARN,
	SDAA_LOG_INFO,
	SDAA_LOG_DEBUG,
};

/* What a message is about: SDAA_LOG_SUBSYS picks which log below ERROR/WARN. */
enum sdaa_log_subsys {
	SDAA_SUB_INIT = 1u << 0,	/* devices, cards */
	SDAA_SUB_MEM = 1u << 1,		/* device and pinned memory, staging */
	SDAA_SUB_JOB = 1u << 2,		/* submits, waits, job errors */
	SDAA_SUB_KERNEL = 1u << 3,	/* compute kernels */
	SDAA_SUB_ALL = (1u << 4) - 1,
};

/* The level SDAA_LOG_LEVEL names: a word, a digit, or off when unset. */
enum sdaa_log_level sdaa_log_parse(const char *s);
/*
 * The subsystems SDAA_LOG_SUBSYS names: comma-separated INIT, MEM, JOB,
 * KERNEL or ALL (as NCCL_DEBUG_SUBSYS; a leading ^ takes them out of ALL);
 * ALL when unset.  Unknown names are ignored.
 */
unsigned int sdaa_log_parse_subsys(const char *s);

/* ERROR and WARN always print (at their level); INFO and DEBUG by @subsys. */
void sdaa_log(enum sdaa_log_level level, enum sdaa_log_subsys subsys, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SDAA_INTERNAL_H */
