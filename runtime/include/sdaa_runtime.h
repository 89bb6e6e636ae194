/* SPDX-License-Identifier: MIT */
/*
 * sdaa_runtime.h - libsdaa, the CUDA-style runtime of the SW-AI card.
 *
 * Devices: every core group (CG) of every SW-AI card is one logical device,
 * so a card gives four.  Devices are numbered card by card (card order is the
 * /dev/accel minor order), CG by CG; SDAA_VISIBLE_DEVICES (a comma-separated
 * list of those numbers) selects and reorders them.  The current device is
 * per thread, 0 until sdaaSetDevice() changes it.
 *
 * Errors: every call returns an sdaaError_t.  A failing call also records
 * its error as the calling thread's last error, which sdaaGetLastError()
 * returns and resets and sdaaPeekAtLastError() returns without resetting.
 * sdaaErrorNotReady and sdaaErrorTimeout are answers, never recorded.  A
 * job that fails on the card (see the sticky errors below) makes the card
 * refuse all further work of the process: every later call on the card's
 * devices returns that error, and GetLastError never resets it.
 * The library prints nothing unless SDAA_LOG_LEVEL (error, warn, info,
 * debug, or 1..4) asks it to, on stderr.
 *
 * Processes: a child of fork() must not use the runtime state of its parent
 * (the parent's context on the card); fork before the first libsdaa call,
 * or exec, as with CUDA.
 */
#ifndef SDAA_RUNTIME_H
#define SDAA_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runtime version: 1000 * major + 10 * minor. */
#define SDAA_VERSION 40

/**
 * enum sdaaError - result of every libsdaa call.  Each failure mode a user
 * can act on has its own code; sdaaGetErrorString() says what to do next.
 */
typedef enum sdaaError {
	sdaaSuccess = 0,
	/* A parameter is out of range or NULL where it must not be. */
	sdaaErrorInvalidValue = 1,
	/* Out of Local-HBM on the current core group (sdaaMalloc). */
	sdaaErrorMemoryAllocation = 2,
	/* The runtime could not initialise for a reason not listed below. */
	sdaaErrorInitializationError = 3,
	/* The swai kernel module is not loaded. */
	sdaaErrorDriverNotLoaded = 35,
	/* The loaded swai driver speaks another uAPI major version. */
	sdaaErrorInsufficientDriver = 36,
	/* /dev/accel/accelN exists but this user may not open it. */
	sdaaErrorNoPermission = 37,
	/* The driver is loaded but no SW-AI card (or none visible). */
	sdaaErrorNoDevice = 100,
	/* A device number outside 0 .. sdaaGetDeviceCount() - 1. */
	sdaaErrorInvalidDevice = 101,
	/* Not the start of a live allocation (wrong pointer, double free). */
	sdaaErrorInvalidDevicePointer = 17,
	/* Out of Global-HBM on the current card (sdaaMallocCross). */
	sdaaErrorCrossMemoryAllocation = 60,
	/* Freed with the call of the other tier (sdaaFree vs sdaaFreeCross). */
	sdaaErrorWrongMemoryTier = 61,
	/* Host memory ran out (sdaaMallocHost, or the runtime's own). */
	sdaaErrorHostMemoryAllocation = 62,
	/* Pinning host memory would exceed RLIMIT_MEMLOCK. */
	sdaaErrorMemlockLimit = 63,
	/* Not a pointer sdaaMallocHost returned (or already freed). */
	sdaaErrorInvalidHostPointer = 64,
	/* The card stopped answering (unplugged, driver unbound). */
	sdaaErrorDeviceUnavailable = 46,
	/* A copy's kind does not match where its pointers live. */
	sdaaErrorInvalidMemcpyDirection = 21,
	/* Not a live stream or event (never created, or destroyed), an
	 * event used on another card, or an event ElapsedTime cannot use
	 * (not recorded, or created with sdaaEventDisableTiming).
	 */
	sdaaErrorInvalidResourceHandle = 400,
	/* Query: the work is not finished yet.  Never becomes the last error. */
	sdaaErrorNotReady = 600,
	/* A ...Timeout synchronize ran out of time; the work goes on.  Never
	 * becomes the last error.
	 */
	sdaaErrorTimeout = 909,
	/* The card or driver cannot run work (no DRM_SWAI_CAP_SUBMIT). */
	sdaaErrorNotSupported = 801,
	/* The two devices cannot reach each other's memory (another card,
	 * or a card or driver without DRM_SWAI_CAP_PEER).
	 */
	sdaaErrorPeerAccessUnsupported = 217,
	/* sdaaDeviceEnablePeerAccess: already enabled for that peer. */
	sdaaErrorPeerAccessAlreadyEnabled = 704,
	/* sdaaDeviceDisablePeerAccess: it was not enabled. */
	sdaaErrorPeerAccessNotEnabled = 705,
	/*
	 * Sticky errors: a job of this process failed on the card.  The
	 * driver then refuses every further job of the process on that card
	 * (all its core groups), as a CUDA context after a sticky error: every
	 * later call on the card's devices returns the error; only freeing and
	 * destroying still work.  Restart the process.
	 */
	sdaaErrorIllegalAddress = 700,		/* MMU fault: address not mapped */
	sdaaErrorLaunchTimeout = 702,		/* job exceeded the job timeout */
	sdaaErrorIllegalInstruction = 715,	/* bad opcode, flags or operand */
	sdaaErrorMisalignedAddress = 716,	/* misaligned operand */
	sdaaErrorLaunchFailure = 719,		/* failed; the cause is not known */
	sdaaErrorLdmOverrun = 750,		/* LDM range beyond the CG's LDM */
	sdaaErrorForeignLocalAccess = 751,	/* another CG's Local-HBM */
	sdaaErrorDmaFailure = 752,		/* a transfer failed on the bus */
	sdaaErrorInvalidProgram = 753,		/* program unreadable or bad size */
	/* Not sticky: a job was lost in a reset of its queue that another
	 * context's hung job caused; the data it should have written is not
	 * there, the process can go on.
	 */
	sdaaErrorDeviceReset = 754,
	/* Anything else; the log (SDAA_LOG_LEVEL=debug) says more. */
	sdaaErrorUnknown = 999,
} sdaaError_t;

/**
 * struct sdaaDeviceProp - what one logical device (a core group) is.
 */
struct sdaaDeviceProp {
	char name[64];			/* "SW-AI card 0 CG 2" */
	int card;			/* accel minor of the card */
	int coreGroup;			/* 0 .. coreGroupsPerCard - 1 */
	int coreGroupsPerCard;		/* core groups on the card */
	int cpeCount;			/* compute cores in this core group */
	size_t ldmPerCpe;		/* bytes of LDM (tier L0) per CPE */
	size_t totalLocalMem;		/* bytes of this CG's Local-HBM (L1) */
	size_t totalGlobalMem;		/* bytes of the card's Global-HBM (L2) */
	size_t hbmPerCoreGroup;		/* bytes on this CG's HBM controller */
	size_t globalGranule;		/* Global-HBM interleave granule */
	int pciDomainID;
	int pciBusID;
	int pciDeviceID;
	int pciFunctionID;
	int major;			/* card hardware version */
	int minor;
	unsigned long long capabilities;	/* DRM_SWAI_CAP_* of the card */
};

/* The tier a pointer lives in (sdaaPointerGetAttributes). */
enum sdaaMemoryType {
	sdaaMemoryTypeUnregistered = 0,	/* not from libsdaa */
	sdaaMemoryTypeLocal = 1,	/* Local-HBM of one core group (L1) */
	sdaaMemoryTypeCross = 2,	/* Global-HBM of a card (L2) */
	sdaaMemoryTypeHost = 3,		/* pinned host memory (sdaaMallocHost) */
};

struct sdaaPointerAttributes {
	enum sdaaMemoryType type;
	int device;		/* Local: its device; Cross: the card's first */
	int card;		/* accel minor of the card; -1 for host, unregistered */
	int coreGroup;		/* Local: its core group; else -1 */
	void *devicePointer;	/* the device address (for host memory: its mapping) */
	void *hostPointer;	/* host memory: the host address; else NULL */
};

const char *sdaaGetErrorString(sdaaError_t error);
const char *sdaaGetErrorName(sdaaError_t error);
sdaaError_t sdaaGetLastError(void);
sdaaError_t sdaaPeekAtLastError(void);

sdaaError_t sdaaRuntimeGetVersion(int *version);
sdaaError_t sdaaDriverGetVersion(int *version);

sdaaError_t sdaaGetDeviceCount(int *count);
sdaaError_t sdaaSetDevice(int device);
sdaaError_t sdaaGetDevice(int *device);
sdaaError_t sdaaGetDeviceProperties(struct sdaaDeviceProp *prop, int device);

/*
 * Device memory.  Pointers are device virtual addresses, unique across every
 * card the process uses (so any pointer names one allocation), and are not
 * dereferenceable on the host.  Allocations are at least 256-byte aligned.
 * Small requests are carved from 2 MiB blocks the runtime keeps, so most
 * calls make no system call.  sdaaMalloc: Local-HBM of the current device's
 * core group; sdaaMallocCross: Global-HBM of its card, shared by the card's
 * core groups.  Size 0 gives NULL.  Freeing NULL does nothing.
 */
sdaaError_t sdaaMalloc(void **devPtr, size_t size);
sdaaError_t sdaaMallocCross(void **devPtr, size_t size);
sdaaError_t sdaaFree(void *devPtr);
sdaaError_t sdaaFreeCross(void *devPtr);
/* Free and total bytes: Local-HBM of the current device / Global-HBM of its card. */
sdaaError_t sdaaMemGetInfo(size_t *free, size_t *total);
sdaaError_t sdaaMemGetInfoCross(size_t *free, size_t *total);
sdaaError_t sdaaPointerGetAttributes(struct sdaaPointerAttributes *attr,
				     const void *ptr);

/*
 * Pinned host memory on the NUMA node of the current device's card, mapped
 * into every card the process uses at one device address
 * (sdaaHostGetDevicePointer; flags must be 0).  Counts against
 * RLIMIT_MEMLOCK (ulimit -l) unless the process has CAP_IPC_LOCK.
 */
sdaaError_t sdaaMallocHost(void **ptr, size_t size);
sdaaError_t sdaaFreeHost(void *ptr);
sdaaError_t sdaaHostGetDevicePointer(void **devPtr, void *hostPtr, unsigned int flags);

/*
 * Streams, events, copies and launches (Documentation/runtime.md).
 *
 * A stream is an in-order sequence of work on one device (core group): the
 * device current when it was created.  Stream 0 (NULL) is the legacy default
 * stream of the current device: work on it waits for all earlier work of
 * the device's blocking streams, and work on a blocking stream waits for all
 * earlier work of the legacy stream, as in CUDA; streams created with
 * sdaaStreamNonBlocking take part in neither rule.  Streams of one device
 * share its hardware queue, which runs jobs one at a time in order.
 *
 * Times: every job has a modeled start and end on the card's clock (the
 * timing model of the SW-AI card, deterministic) and real (wall) time.
 * sdaaEventElapsedTime reports modeled time, sdaaEventElapsedTimeWall wall
 * time.
 */
typedef struct sdaaStream_st *sdaaStream_t;
typedef struct sdaaEvent_st *sdaaEvent_t;

#define sdaaStreamDefault		0x0U
#define sdaaStreamNonBlocking		0x1U	/* no implicit sync with stream 0 */

#define sdaaEventDefault		0x0U
#define sdaaEventBlockingSync		0x1U	/* accepted; waits always sleep */
#define sdaaEventDisableTiming		0x2U	/* no ElapsedTime */

enum sdaaMemcpyKind {
	sdaaMemcpyHostToHost = 0,
	sdaaMemcpyHostToDevice = 1,
	sdaaMemcpyDeviceToHost = 2,
	sdaaMemcpyDeviceToDevice = 3,
	sdaaMemcpyDefault = 4,		/* inferred from the pointers */
};

sdaaError_t sdaaStreamCreate(sdaaStream_t *pStream);
sdaaError_t sdaaStreamCreateWithFlags(sdaaStream_t *pStream, unsigned int flags);
sdaaError_t sdaaStreamDestroy(sdaaStream_t stream);
sdaaError_t sdaaStreamSynchronize(sdaaStream_t stream);
/* sdaaErrorTimeout if the stream's work is not done within @timeout_ms. */
sdaaError_t sdaaStreamSynchronizeTimeout(sdaaStream_t stream, unsigned int timeout_ms);
/* sdaaSuccess when all work is done, else sdaaErrorNotReady. */
sdaaError_t sdaaStreamQuery(sdaaStream_t stream);
/* Later work on @stream waits until @event has completed; @flags must be 0. */
sdaaError_t sdaaStreamWaitEvent(sdaaStream_t stream, sdaaEvent_t event, unsigned int flags);
/* The device of a stream (stream 0: the current device). */
sdaaError_t sdaaStreamGetDevice(sdaaStream_t stream, int *device);

sdaaError_t sdaaEventCreate(sdaaEvent_t *event);
sdaaError_t sdaaEventCreateWithFlags(sdaaEvent_t *event, unsigned int flags);
sdaaError_t sdaaEventDestroy(sdaaEvent_t event);
/* Capture the work submitted to @stream so far. */
sdaaError_t sdaaEventRecord(sdaaEvent_t event, sdaaStream_t stream);
sdaaError_t sdaaEventQuery(sdaaEvent_t event);
sdaaError_t sdaaEventSynchronize(sdaaEvent_t event);
sdaaError_t sdaaEventSynchronizeTimeout(sdaaEvent_t event, unsigned int timeout_ms);
/* Modeled card time from @start to @end in ms. */
sdaaError_t sdaaEventElapsedTime(float *ms, sdaaEvent_t start, sdaaEvent_t end);
/* Real time from @start to @end in ms, as the host saw the events complete. */
sdaaError_t sdaaEventElapsedTimeWall(float *ms, sdaaEvent_t start, sdaaEvent_t end);

/* Wait for all work of every stream of the current device. */
sdaaError_t sdaaDeviceSynchronize(void);
sdaaError_t sdaaDeviceSynchronizeTimeout(unsigned int timeout_ms);

/*
 * Peer access, as CUDA's.  @can is 1 when @device can access @peer, else 0
 * (also for @device == @peer):
 * - two core groups of one card (driver with DRM_SWAI_CAP_PEER) reach each
 *   other's Local-HBM directly over the ring once enabled.  While a device
 *   has any such peer enabled, its jobs (copies, launched programs) may
 *   address enabled and not enabled peers' Local-HBM alike (the card checks
 *   per job, not per peer), and sdaaMemcpy from its Local-HBM to the peer's
 *   (or back) is one direct copy on the source device instead of two
 *   through Global-HBM;
 * - core groups of two cards of one fabric (swai.ko 1.4, the cards' routes
 *   present: Documentation/runtime.md) reach each other's memory over the
 *   fabric's links, never through host memory: enabling maps every
 *   allocation of the peer's card, now and later, on the current device's
 *   card at the same address, so launched programs may use the peer's
 *   pointers; copies between the two cards are one job on the source's
 *   card whether enabled or not.
 * Enabling is for the current device (the accessing side), towards @peer
 * (flags must be 0); it stays until disabled or the process ends.
 * Errors: sdaaErrorInvalidDevice (@peer out of range, or the current
 * device), sdaaErrorInvalidValue (flags, NULL), sdaaErrorPeerAccessUnsupported,
 * sdaaErrorPeerAccessAlreadyEnabled, sdaaErrorPeerAccessNotEnabled.
 */
sdaaError_t sdaaDeviceCanAccessPeer(int *can, int device, int peer);
sdaaError_t sdaaDeviceEnablePeerAccess(int peer, unsigned int flags);
sdaaError_t sdaaDeviceDisablePeerAccess(int peer);

/*
 * Where device @device's card is on its card-to-card fabric (swai.ko 1.4):
 * @id its index among the topology's cards, @cards the topology's cards (0:
 * on no fabric; then @id and @tag are 0 too), @tag the same nonzero value
 * on every card of one fabric.  libswccl maps ranks onto the topology with
 * it.  sdaaErrorInvalidValue (NULL), sdaaErrorInvalidDevice.
 */
sdaaError_t sdaaDeviceGetFabricInfo(int device, int *id, int *cards, unsigned int *tag);

/*
 * The card's NIC port (swai.ko 1.5; Documentation/datasheet.md §16): a
 * virtual port of this process's own on the card of @device, with the
 * card's node number on the network and the key packets to the port must
 * carry (give both to the peers that may send to it).  Descriptors are the
 * 128-byte records of <drm/swai_nic.h>; SRC must be @port->node and VPORT
 * @port->vport.  sdaaNicPost queues @count (1..256) in order at the
 * process's modeled host time (*posted: how many went; a refused one is
 * sdaaErrorInvalidValue, a full queue sdaaErrorNotReady: take completions
 * and post the rest).  sdaaNicWait waits up to @timeoutMs for @min
 * completions and takes up to @max; the host's modeled time moves to the
 * latest one's end plus the host sync cost, as a wait for a job does
 * (sdaaErrorTimeout if fewer came; those that did are taken).  Errors:
 * sdaaErrorNotSupported (no NIC port, or swai.ko older than 1.5),
 * sdaaErrorNotReady from sdaaNicOpen when all 16 ports are taken.
 */
typedef struct sdaaNicPort_st {
	int device;
	unsigned int vport;
	unsigned int node;
	unsigned int key;
} sdaaNicPort_t;

typedef struct sdaaNicCompletion_st {
	unsigned char status;		/* SWAI_NIC_OK, SWAI_NIC_E_* */
	unsigned char kind;		/* SWAI_NIC_KIND_* */
	unsigned short errvec;		/* the result's element error bits */
	unsigned int index;		/* the port's descriptor number; ~0: a packet */
	unsigned long long timeNs;	/* when it ended, modeled */
} sdaaNicCompletion_t;

sdaaError_t sdaaNicOpen(int device, sdaaNicPort_t *port);
sdaaError_t sdaaNicClose(const sdaaNicPort_t *port);
sdaaError_t sdaaNicPost(const sdaaNicPort_t *port, const void *descs, unsigned int count,
			unsigned int *posted);
/*
 * The same, posted at modeled time @notBeforeNs instead of the host's
 * clock: for a caller that models several hosts in one process (libswccl's
 * HOST algorithm gives each rank's host its own time).
 */
sdaaError_t sdaaNicPostAt(const sdaaNicPort_t *port, const void *descs, unsigned int count,
			  unsigned long long notBeforeNs, unsigned int *posted);
sdaaError_t sdaaNicWait(const sdaaNicPort_t *port, sdaaNicCompletion_t *completions,
			unsigned int max, unsigned int min, unsigned int timeoutMs,
			unsigned int *count);

/*
 * Copy @count bytes from @src on logical device @srcDevice's card to @dst on
 * @dstDevice's card (sdaaErrorInvalidValue if a pointer is not memory of
 * that device's card): sdaaMemcpy/sdaaMemcpyAsync with the devices checked.
 * Between cards of one fabric it is one job on the source's card through
 * the fabric; between cards that cannot reach each other, through pinned
 * host memory (synchronous).
 */
sdaaError_t sdaaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
			   size_t count);
sdaaError_t sdaaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
				size_t count, sdaaStream_t stream);

/*
 * Device memory shared between processes, as CUDA's IPC (one process per
 * card): sdaaIpcGetMemHandle gives a 64-byte handle for the allocation
 * holding @devPtr, valid while the allocation and its process live, that may
 * be sent to another process any way; sdaaIpcOpenMemHandle maps that memory
 * on the opener's current device's card (the same card, or another of the
 * fabric) and returns its address there; sdaaIpcCloseMemHandle unmaps it.
 * The memory travels as a dma-buf the opener takes with pidfd_getfd(2):
 * the two processes must run as one user and, under Yama ptrace_scope 1,
 * the exporter must allow the opener (prctl(PR_SET_PTRACER)).  A handle
 * covers the 2 MiB block holding the allocation (allocate IPC buffers of at
 * least 2 MiB to give them blocks of their own).  @flags:
 * sdaaIpcMemLazyEnablePeerAccess or 0.  Errors: sdaaErrorInvalidValue,
 * sdaaErrorInvalidDevicePointer (not device memory of this process / not an
 * opened handle), sdaaErrorInvalidResourceHandle (not a handle, its process
 * gone, or not allowed: the log says which), sdaaErrorPeerAccessUnsupported
 * (the cards are not on one fabric), sdaaErrorNotSupported (swai.ko older
 * than 1.4).
 */
#define SDAA_IPC_HANDLE_SIZE 64
typedef struct sdaaIpcMemHandle_st {
	char reserved[SDAA_IPC_HANDLE_SIZE];
} sdaaIpcMemHandle_t;
#define sdaaIpcMemLazyEnablePeerAccess 0x01
sdaaError_t sdaaIpcGetMemHandle(sdaaIpcMemHandle_t *handle, void *devPtr);
sdaaError_t sdaaIpcOpenMemHandle(void **devPtr, sdaaIpcMemHandle_t handle, unsigned int flags);
sdaaError_t sdaaIpcCloseMemHandle(void *devPtr);

/*
 * Copies between any two of: pageable host memory, pinned host memory
 * (sdaaMallocHost, by host or device pointer), Local-HBM (sdaaMalloc) and
 * Global-HBM (sdaaMallocCross), of any size and alignment.  sdaaMemcpy runs
 * on the current device's stream 0 and returns when the copy is done.
 * sdaaMemcpyAsync returns once the copy is queued, except from or to
 * pageable memory, which goes through the runtime's pinned staging buffers
 * (to pageable memory: returns when done) and between cards (done on
 * return).
 */
sdaaError_t sdaaMemcpy(void *dst, const void *src, size_t count, enum sdaaMemcpyKind kind);
sdaaError_t sdaaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum sdaaMemcpyKind kind, sdaaStream_t stream);
/* Set @count bytes of device (or pinned host) memory to @value. */
sdaaError_t sdaaMemset(void *devPtr, int value, size_t count);
sdaaError_t sdaaMemsetAsync(void *devPtr, int value, size_t count, sdaaStream_t stream);

/*
 * Run a core-group program on the device (core group) of @stream: @count
 * instructions of the SW-AI ISA (struct swai_insn, <drm/swai_program.h>, at
 * most SWAI_PROGRAM_MAX_BYTES).  The runtime copies the program, so the
 * array may be reused at once.  Its operands are device addresses of this
 * process (sdaaMalloc, sdaaMallocCross, sdaaHostGetDevicePointer) and LDM
 * offsets.  Errors of the program surface as sticky errors when the stream
 * is synchronised.
 */
struct swai_insn;
sdaaError_t sdaaLaunchProgram(const struct swai_insn *insns, size_t count,
			      sdaaStream_t stream);

/*
 * The card's timing model (datasheet §14) as seen from @device: bandwidths
 * in MB/s (10^6 bytes/s), costs and clocks in ns of modeled time.
 */
struct sdaaTimingParams {
	unsigned int ringMBps;		/* per CG, LDM <-> Global-HBM */
	unsigned int ringTotalMBps;	/* the ring, shared by all CGs */
	unsigned int localMBps;		/* per CG, LDM <-> its Local-HBM */
	unsigned int pcieMBps;		/* host link, each direction, shared */
	unsigned int ldmMBps;		/* per CG, REDUCE in LDM */
	unsigned int launchNs;		/* host launch of a job */
	unsigned int syncNs;		/* host-mediated synchronisation */
	unsigned int stepNs;		/* fixed cost of every COPY */
	unsigned int barrierNs;		/* on-card BARRIER / WAIT */
	unsigned int dmaNs;		/* fixed cost of every DMA_GET/PUT */
	unsigned long long cardClockNs;	/* the card's modeled clock now */
	unsigned long long hostClockNs;	/* this process's modeled host time */
	unsigned long long resets;	/* queue and card resets so far */
	/* Since SDAA_VERSION 40 (a program built against 30 gets the fields above only). */
	unsigned int f32Gflops;		/* per CG, peak GEMM GFLOP/s with f32 inputs; 0 without compute */
	unsigned int bf16Gflops;	/* per CG, peak GEMM GFLOP/s with bf16 inputs */
};
sdaaError_t sdaaDeviceGetTimingParams(struct sdaaTimingParams *params, int device);
/*
 * The host waits in modeled time until @modeledNs: this process's host
 * clock (hostClockNs) moves there if it is earlier, and stays if it is
 * later.  What a launcher or a benchmark does to start the processes of a
 * job at one modeled time (each process keeps its own host clock, and the
 * cards' clocks meet only through the packets between them).  Wall time is
 * not spent.
 */
sdaaError_t sdaaHostWaitUntil(unsigned long long modeledNs);

/*
 * Compute kernels (SDAA_VERSION 40; cards with DRM_SWAI_CAP_COMPUTE, else
 * sdaaErrorNotSupported).  Each runs on the core group of @stream, in
 * stream order, as one or more jobs whose programs tile the operands
 * through the LDM (Documentation/kernels.md).  Matrices are row major;
 * leading dimensions (lda, ldb, ldc) are in elements.  Pointers are device
 * addresses the stream's core group can reach: its own Local-HBM
 * (sdaaMalloc on that device), Global-HBM (sdaaMallocCross), pinned host
 * memory (sdaaHostGetDevicePointer; over PCIe, slow), or another core
 * group's Local-HBM once peer access to it is enabled.  They are checked by
 * the card: a bad address becomes a sticky error at synchronisation.
 * Arguments that are wrong in themselves (NULL, sizes, leading dimensions,
 * types, keepProb, eps, outputs overlapping inputs where not allowed) give
 * sdaaErrorInvalidValue, and nothing runs.
 *
 * Arithmetic is f32 in a fixed order (datasheet §13.7): LayerNorm, Dropout
 * and Convert are bit-exact against the host reference (runtime/kernels/swk_ref.c);
 * GEMM uses the card's BLAS with K split into blocks when a panel does not
 * fit the LDM, and meets |C - exact| <= 1e-5 |alpha| sum_k |a||b| sqrt(k) +
 * 1e-6 (1 + |beta C|).
 */
typedef enum sdaaDataType {
	SDAA_R_32F = 0,			/* IEEE-754 binary32 */
	SDAA_R_16BF = 14,		/* bfloat16: the top half of a binary32, round to even */
} sdaaDataType_t;
typedef enum sdaaOperation { SDAA_OP_N = 0, SDAA_OP_T = 1 } sdaaOperation_t;
typedef enum sdaaEpilogue {
	SDAA_EPILOGUE_DEFAULT = 0,	/* none */
	SDAA_EPILOGUE_GELU = 1,		/* C = gelu(C) after beta, tanh form */
} sdaaEpilogue_t;

/*
 * C[m][n] (f32) = alpha op(A) op(B) + beta C, then the epilogue; A and B of
 * @type (op(A) is m x k: A is k x m with SDAA_OP_T).  beta 0 does not read
 * C.  C must not overlap A or B.
 */
sdaaError_t sdaaGemm(sdaaOperation_t transA, sdaaOperation_t transB, int m, int n, int k,
		     float alpha, const void *A, int lda, const void *B, int ldb, float beta,
		     float *C, int ldc, sdaaDataType_t type, sdaaEpilogue_t epilogue,
		     sdaaStream_t stream);
/*
 * Per row of x (rows x cols, @type, contiguous): y = (x - mean) / sqrt(var +
 * eps) * gamma + beta (biased variance; gamma, beta f32 [cols]); y may be x.
 */
sdaaError_t sdaaLayerNorm(void *y, const void *x, const float *gamma, const float *beta,
			  int rows, int cols, float eps, sdaaDataType_t type, sdaaStream_t stream);
/*
 * y[i] = u(offset + i) < keepProb ? x[i] / keepProb : 0 for i < n, keepProb
 * in (0, 1], u from Philox4x32-10 keyed by @seed (datasheet §13.7): a
 * tensor processed in pieces with matching offsets gets the same mask.
 * y may be x.
 */
sdaaError_t sdaaDropout(void *y, const void *x, size_t n, float keepProb,
			unsigned long long seed, unsigned long long offset, sdaaDataType_t type,
			sdaaStream_t stream);
/* y[i] = (ytype)x[i] for i < n; y may be x only when both types have one size. */
sdaaError_t sdaaConvert(void *y, sdaaDataType_t ytype, const void *x, sdaaDataType_t xtype,
			size_t n, sdaaStream_t stream);

/* For libraries that build their own kernels (libswccl): the job geometry of @device. */
struct sdaaKernelLimits {
	size_t ldmBytes;		/* LDM of the core group: CPEs x LDM per CPE */
	int maxInsns;			/* instructions per job (SWAI_PROGRAM_MAX_BYTES / 48) */
};
sdaaError_t sdaaDeviceGetKernelLimits(struct sdaaKernelLimits *lim, int device);

#ifdef __cplusplus
}
#endif

#endif /* SDAA_RUNTIME_H */
