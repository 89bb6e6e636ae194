/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-glue.h - what the card model needs from the program it runs in:
 * QEMU (swai-pci.c) or the host unit tests (tests/fake-glue.h).
 *
 * notify, kick and wake are cheap and may be called from MMIO; dma_read and
 * dma_write are bus-master accesses to host memory (0 on success) used from
 * the bottom half and the MPE thread only; unlock/lock bracket the bulk data
 * movement of an MPE step (the glue drops and retakes the lock the card
 * otherwise runs under); guest_error reports a misuse of the card by the
 * guest (QEMU: LOG_GUEST_ERROR).
 */
#ifndef SWAI_GLUE_H
#define SWAI_GLUE_H

#include <stddef.h>
#include <stdint.h>

struct swai_glue_ops {
    void (*notify)(void *opaque, unsigned vector);  /* fire MSI-X vector */
    void (*kick)(void *opaque);         /* run swai_card_bh() soon */
    void (*wake)(void *opaque);         /* run swai_card_step() soon */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    uint64_t (*wall_ns)(void *opaque);  /* host monotonic time, ns */
    void (*unlock)(void *opaque);
    void (*lock)(void *opaque);
    void (*guest_error)(void *opaque, const char *msg);
};

struct swai_glue {
    const struct swai_glue_ops *ops;
    void *opaque;
};

/* Report a guest's misuse of the card, printf style. */
void swai_glue_guest_error(const struct swai_glue *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* SWAI_GLUE_H */
