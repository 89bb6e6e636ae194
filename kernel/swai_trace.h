/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * swai_trace.h - tracepoints of swai.ko (events/swai/ in tracefs).
 *
 * A job is named as in every layer of the stack: ctx (the context's ASID),
 * q (the core group) and job (the context's job id that
 * DRM_IOCTL_SWAI_SUBMIT returned, also in the hardware descriptor and in
 * the device model's swai_job_* trace events).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM swai

#if !defined(_SWAI_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _SWAI_TRACE_H_

#include <linux/tracepoint.h>
#include <linux/types.h>

DECLARE_EVENT_CLASS(swai_job_class,
		    TP_PROTO(u32 ctx, u32 q, u64 job, u64 arg),
		    TP_ARGS(ctx, q, job, arg),
		    TP_STRUCT__entry(__field(u32, ctx)
				     __field(u32, q)
				     __field(u64, job)
				     __field(u64, arg)),
		    TP_fast_assign(__entry->ctx = ctx;
				   __entry->q = q;
				   __entry->job = job;
				   __entry->arg = arg;),
		    TP_printk("ctx %u q %u job %llu: 0x%llx", __entry->ctx,
			      __entry->q, __entry->job, __entry->arg)
);

/* SUBMIT accepted the job; arg: the program's device VA. */
DEFINE_EVENT(swai_job_class, swai_job_submit,
	     TP_PROTO(u32 ctx, u32 q, u64 job, u64 prog_va),
	     TP_ARGS(ctx, q, job, prog_va)
);

/* Its descriptor was written to the queue's ring; arg: its seqno. */
DEFINE_EVENT(swai_job_class, swai_job_run,
	     TP_PROTO(u32 ctx, u32 q, u64 job, u64 seqno),
	     TP_ARGS(ctx, q, job, seqno)
);

/* It ended: the card's completion, or the driver's error. */
TRACE_EVENT(swai_job_done,
	    TP_PROTO(u32 ctx, u32 q, u64 job, u32 error, u64 start_ns,
		     u64 end_ns),
	    TP_ARGS(ctx, q, job, error, start_ns, end_ns),
	    TP_STRUCT__entry(__field(u32, ctx)
			     __field(u32, q)
			     __field(u64, job)
			     __field(u32, error)
			     __field(u64, start_ns)
			     __field(u64, end_ns)),
	    TP_fast_assign(__entry->ctx = ctx;
			   __entry->q = q;
			   __entry->job = job;
			   __entry->error = error;
			   __entry->start_ns = start_ns;
			   __entry->end_ns = end_ns;),
	    TP_printk("ctx %u q %u job %llu: error %u, modeled %llu..%llu ns",
		      __entry->ctx, __entry->q, __entry->job, __entry->error,
		      __entry->start_ns, __entry->end_ns)
);

TRACE_EVENT(swai_mmu_fault,
	    TP_PROTO(u32 ctx, u64 va, u32 reason, bool write),
	    TP_ARGS(ctx, va, reason, write),
	    TP_STRUCT__entry(__field(u32, ctx)
			     __field(u64, va)
			     __field(u32, reason)
			     __field(bool, write)),
	    TP_fast_assign(__entry->ctx = ctx;
			   __entry->va = va;
			   __entry->reason = reason;
			   __entry->write = write;),
	    TP_printk("ctx %u va 0x%llx reason %u %s", __entry->ctx,
		      __entry->va, __entry->reason,
		      __entry->write ? "write" : "read")
);

/* A queue reset; bad: the timed-out job (ctx 0 job 0: none). */
TRACE_EVENT(swai_queue_reset,
	    TP_PROTO(u32 q, u32 ctx, u64 bad, bool ok),
	    TP_ARGS(q, ctx, bad, ok),
	    TP_STRUCT__entry(__field(u32, q)
			     __field(u32, ctx)
			     __field(u64, bad)
			     __field(bool, ok)),
	    TP_fast_assign(__entry->q = q;
			   __entry->ctx = ctx;
			   __entry->bad = bad;
			   __entry->ok = ok;),
	    TP_printk("q %u: %s; timed out: ctx %u job %llu (0: none)",
		      __entry->q, __entry->ok ? "reset" : "reset failed",
		      __entry->ctx, __entry->bad)
);

TRACE_EVENT(swai_card_reset,
	    TP_PROTO(u32 num_cg),
	    TP_ARGS(num_cg),
	    TP_STRUCT__entry(__field(u32, num_cg)),
	    TP_fast_assign(__entry->num_cg = num_cg;),
	    TP_printk("every queue (%u) reset", __entry->num_cg)
);

#endif /* _SWAI_TRACE_H_ */

/* Out of tree: define_trace.h finds this file on the include path. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE swai_trace
#include <trace/define_trace.h>
