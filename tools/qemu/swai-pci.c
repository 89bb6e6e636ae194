/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-pci.c - QEMU glue for the emulated SW-AI accelerator card.
 *
 * A PCIe endpoint with BAR0 = registers, BAR1 = MSI-X, BAR2 = HBM aperture.
 * All register behaviour lives in swai-card.c (QEMU-independent, unit-tested
 * on the host) and the jobs run on the card's engine (tools/card/); this
 * file only wires them to memory regions, MSI-X, a bottom half, the reset
 * framework, QEMU's logging and the MPE thread.  See
 * Documentation/datasheet.md.
 *
 * The MPE (command processor, swai-cp.c) runs on its own thread so the
 * guest keeps running while the card works.  The thread takes the BQL for
 * each bounded step, as the card expects, drops it while the step moves
 * the bulk of its data (ops->unlock/lock), and sleeps on a condition
 * variable that doorbell and queue-control writes signal.
 *
 * With fabric=ID,fabric-card=N the card is card N of a swai-fabric object
 * (swai-fabric-obj.h) and its programs reach the other cards' HBM.  The
 * MPE's unlocked window is an RCU read-side critical section, and QEMU
 * frees a RAM block only after a grace period (qemu_ram_free uses
 * call_rcu): a peer in the middle of a copy from a card that is unplugged
 * finishes with the old HBM before it goes.
 *
 * With netdev=ID,nic-node=K the card's NIC port (swai-netport.h,
 * datasheet §16) is node K of a network: its frames go out on that QEMU
 * netdev and come in through its receive callback, both under the BQL,
 * and a QEMU timer resends what the peers have not acknowledged.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/thread.h"
#include "qemu/rcu.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msix.h"
#include "system/dma.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/net.h"

#include "swai-card.h"
#include "swai-fabric-obj.h"

#define TYPE_SWAI "swai"
OBJECT_DECLARE_SIMPLE_TYPE(SwaiState, SWAI)

/* PCIe capability in config space, clear of the 64-byte header. */
#define SWAI_PCIE_CAP_OFFSET 0x80

struct SwaiState {
    PCIDevice parent_obj;

    struct swai_props props;    /* set by -device properties */
    struct swai_card card;
    QEMUBH *bh;

    /* The MPE thread; cp_stop and cp_cond are used under the BQL. */
    QemuThread cp_thread;
    QemuCond cp_cond;
    bool cp_stop;
    unsigned cp_unlocks;        /* times a step dropped the BQL itself */
    uint8_t *ldm;               /* NUM_CG * cpes * ldm-kb KiB */

    MemoryRegion mmio;          /* BAR0 */
    MemoryRegion aperture;      /* BAR2: power-of-two container */
    MemoryRegion hbm;           /* RAM, 4 * hbm-mb, at aperture + 0 */

    SwaiFabricState *fabric;    /* fabric=, NULL: none */
    uint32_t fabric_card;       /* fabric-card=, UINT32_MAX: unset */
    bool joined;

    NICConf net_conf;           /* netdev= (and mac=, ignored: see below) */
    uint32_t nic_node;          /* nic-node=, UINT32_MAX: unset */
    uint32_t nic_drop_pm, nic_reorder_pm;   /* fault injection, per mille */
    NICState *net;
    QEMUTimer *net_timer;
    QEMUBH *net_bh;             /* sends net_out */
    GQueue net_out;             /* frames to send (GByteArray) */
};

static void swai_notify(void *opaque, unsigned vector)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    /* No INTx: with MSI-X off the device cannot interrupt at all. */
    if (msix_enabled(pdev)) {
        msix_notify(pdev, vector);
    }
}

static void swai_kick(void *opaque)
{
    SwaiState *s = opaque;

    qemu_bh_schedule(s->bh);
}

/* Bus-master read of host memory (MMU tables); fails if BME is off. */
static int swai_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    return pci_dma_read(pdev, addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int swai_dma_write(void *opaque, uint64_t addr, const void *buf,
                          size_t len)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    return pci_dma_write(pdev, addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static void swai_wake(void *opaque)
{
    SwaiState *s = opaque;

    qemu_cond_signal(&s->cp_cond);
}

static uint64_t swai_wall_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
}

/* Around the bulk data movement of a step (swai-engine.h). */
static void swai_unlock(void *opaque)
{
    SwaiState *s = opaque;

    s->cp_unlocks++;
    bql_unlock();
    rcu_read_lock();    /* peers' HBM stays while bytes move (see top) */
}

static void swai_lock(void *opaque)
{
    rcu_read_unlock();
    bql_lock();
}

/* The guest misused the card: -d guest_errors shows it. */
static void swai_guest_error(void *opaque, const char *msg)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s\n", msg);
}

static const struct swai_glue_ops swai_glue_ops = {
    .notify = swai_notify,
    .kick = swai_kick,
    .wake = swai_wake,
    .dma_read = swai_dma_read,
    .dma_write = swai_dma_write,
    .wall_ns = swai_wall_ns,
    .unlock = swai_unlock,
    .lock = swai_lock,
    .guest_error = swai_guest_error,
};

static void *swai_cp_thread(void *opaque)
{
    SwaiState *s = opaque;

    rcu_register_thread();
    bql_lock();
    while (!s->cp_stop) {
        unsigned unlocks = s->cp_unlocks;

        if (swai_card_step(&s->card)) {
            /*
             * Let MMIO and the main loop in between steps -- unless the
             * step already did while it moved its bytes: every release of
             * a contended BQL costs a wake-up, as much as a chunk's copy.
             */
            if (s->cp_unlocks == unlocks) {
                bql_unlock();
                bql_lock();
            }
            continue;
        }
        /* Semaphores written by the host are polled, doorbells signal. */
        qemu_cond_timedwait_bql(&s->cp_cond,
                                swai_card_polling(&s->card) ? 1 : 100);
    }
    bql_unlock();
    rcu_unregister_thread();
    return NULL;
}

static void swai_bh(void *opaque)
{
    SwaiState *s = opaque;

    swai_card_bh(&s->card);
}

static uint64_t swai_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    SwaiState *s = opaque;

    return swai_card_mmio_read(&s->card, addr, size);
}

static void swai_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    SwaiState *s = opaque;

    swai_card_mmio_write(&s->card, addr, val, size);
}

static const MemoryRegionOps swai_mmio_ops = {
    .read = swai_mmio_read,
    .write = swai_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The datasheet allows aligned 32-bit accesses only. */
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* Join the fabric the properties name, if any. */
static bool swai_join(SwaiState *s, Error **errp)
{
    char why[256];

    if (!s->fabric && s->fabric_card == UINT32_MAX) {
        return true;
    }
    if (!s->fabric || s->fabric_card == UINT32_MAX) {
        error_setg(errp, "swai: fabric= and fabric-card= go together (the "
                   "card's index in the fabric's topology)");
        return false;
    }
    if (swai_card_join_fabric(&s->card, s->fabric->fabric, s->fabric_card,
                              why, sizeof(why))) {
        error_setg(errp, "swai: %s", why);
        return false;
    }
    s->fabric->members++;
    s->joined = true;
    return true;
}

static void swai_leave(SwaiState *s)
{
    if (s->joined) {
        swai_card_leave_fabric(&s->card);
        s->fabric->members--;
        s->joined = false;
    }
}

/* --- the NIC port's network (datasheet §16) --- */

static ssize_t swai_net_receive(NetClientState *nc, const uint8_t *buf,
                                size_t size)
{
    SwaiState *s = qemu_get_nic_opaque(nc);

    swai_netport_rx(&s->card.nic, buf, size);
    return size;
}

/*
 * Frames go out from a bottom half, never from inside a receive callback:
 * QEMU's net layer queues a packet sent back to a client that is still
 * delivering, and a NIC that never flushes would keep it there.
 */
static void swai_net_tx(void *opaque, const uint8_t *frame, size_t len)
{
    SwaiState *s = opaque;

    g_queue_push_tail(&s->net_out, g_byte_array_append(g_byte_array_new(),
                                                        frame, len));
    qemu_bh_schedule(s->net_bh);
}

static void swai_net_flush(void *opaque)
{
    SwaiState *s = opaque;
    NetClientState *nc = qemu_get_queue(s->net);
    GByteArray *f;

    while ((f = g_queue_pop_head(&s->net_out))) {
        qemu_send_packet(nc, f->data, f->len);
        g_byte_array_unref(f);
    }
    /* And take what the net layer held back while we were delivering. */
    qemu_flush_queued_packets(nc);
}

static void swai_net_timer(void *opaque, uint64_t ns)
{
    SwaiState *s = opaque;

    if (ns) {
        timer_mod(s->net_timer, ns);
    } else {
        timer_del(s->net_timer);
    }
}

static void swai_net_tick(void *opaque)
{
    SwaiState *s = opaque;

    swai_netport_tick(&s->card.nic);
}

static NetClientInfo swai_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .receive = swai_net_receive,
};

static const struct swai_netport_net swai_net_ops = {
    .tx = swai_net_tx,
    .timer = swai_net_timer,
};

static bool swai_net_up(SwaiState *s, Error **errp)
{
    bool has_net = s->net_conf.peers.ncs[0] != NULL;
    DeviceState *dev = DEVICE(s);

    if (!has_net && s->nic_node == UINT32_MAX) {
        return true;
    }
    if (s->nic_drop_pm > 1000 || s->nic_reorder_pm > 1000) {
        error_setg(errp, "swai: nic-drop-pm and nic-reorder-pm are per mille "
                   "(0..1000)");
        return false;
    }
    if (!has_net || s->nic_node >= SWAI_REL_NODES) {
        error_setg(errp, "swai: netdev= and nic-node= go together (nic-node: "
                   "the card's node number on the network, 0..%u)",
                   SWAI_REL_NODES - 1);
        return false;
    }
    /* The MAC follows the node number, so frames need no address lookup. */
    SWAI_REL_MAC(s->net_conf.macaddr.a, s->nic_node);
    s->net = qemu_new_nic(&swai_net_info, &s->net_conf,
                          object_get_typename(OBJECT(s)), dev->id,
                          &dev->mem_reentrancy_guard, s);
    s->net_timer = timer_new_ns(QEMU_CLOCK_REALTIME, swai_net_tick, s);
    g_queue_init(&s->net_out);
    s->net_bh = qemu_bh_new_guarded(swai_net_flush, s,
                                    &dev->mem_reentrancy_guard);
    if (swai_netport_connect(&s->card.nic, s->nic_node, &swai_net_ops, s,
                             &s->props.t)) {
        error_setg(errp, "swai: cannot set up the NIC port");
        qemu_bh_delete(s->net_bh);
        timer_free(s->net_timer);
        qemu_del_nic(s->net);
        s->net = NULL;
        return false;
    }
    swai_netport_faults(&s->card.nic, s->nic_drop_pm, s->nic_reorder_pm,
                        s->nic_node + 1);
    return true;
}

static void swai_net_down(SwaiState *s)
{
    if (s->net) {
        qemu_bh_delete(s->net_bh);
        g_queue_clear_full(&s->net_out, (GDestroyNotify)g_byte_array_unref);
        timer_free(s->net_timer);
        qemu_del_nic(s->net);
        s->net = NULL;
    }
    swai_netport_free(&s->card.nic);
}

static void swai_realize(PCIDevice *pdev, Error **errp)
{
    SwaiState *s = SWAI(pdev);
    const char *why;
    uint64_t hbm_size;
    int i;

    why = swai_card_props_validate(&s->props);
    if (why) {
        char local[16] = "auto";

        if (s->props.local_mb != SWAI_LOCAL_MB_AUTO) {
            snprintf(local, sizeof(local), "%" PRIu32, s->props.local_mb);
        }
        error_setg(errp, "%s (hbm-mb=%" PRIu32 ", local-mb=%s, cpes=%" PRIu32
                   ", ldm-kb=%" PRIu32 ")", why, s->props.hbm_mb, local,
                   s->props.cpes, s->props.ldm_kb);
        return;
    }

    pci_config_set_interrupt_pin(pdev->config, 0);     /* MSI-X only */

    if (pcie_endpoint_cap_init(pdev, SWAI_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "cannot add the PCIe capability");
        return;
    }

    memory_region_init_io(&s->mmio, OBJECT(s), &swai_mmio_ops, s,
                          "swai-mmio", SWAI_MMIO_SIZE);
    pci_register_bar(pdev, SWAI_BAR_MMIO, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);

    if (msix_init_exclusive_bar(pdev, SWAI_MSIX_VECTORS, SWAI_BAR_MSIX,
                                errp)) {
        goto err_pcie;
    }
    for (i = 0; i < SWAI_MSIX_VECTORS; i++) {
        msix_vector_use(pdev, i);
    }

    /* BAR2 maps HBM-physical; a BAR must be a power of two in size. */
    hbm_size = (uint64_t)SWAI_NUM_CG * s->props.hbm_mb * MiB;
    memory_region_init(&s->aperture, OBJECT(s), "swai-aperture",
                       pow2ceil(hbm_size));
    if (!memory_region_init_ram(&s->hbm, OBJECT(s), "swai-hbm", hbm_size,
                                errp)) {
        goto err_msix;
    }
    memory_region_add_subregion(&s->aperture, 0, &s->hbm);
    pci_register_bar(pdev, SWAI_BAR_HBM,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->aperture);

    s->bh = qemu_bh_new_guarded(swai_bh, s,
                                &DEVICE(pdev)->mem_reentrancy_guard);
    swai_card_init(&s->card, &s->props, &swai_glue_ops, s);
    s->ldm = g_malloc0(SWAI_NUM_CG * swai_card_ldm_bytes(&s->card));
    if (!swai_card_attach(&s->card, memory_region_get_ram_ptr(&s->hbm),
                          s->ldm)) {
        error_setg(errp, "cannot allocate the LDM scoreboards");
        g_free(s->ldm);
        s->ldm = NULL;
        qemu_bh_delete(s->bh);
        goto err_msix;
    }

    if (!swai_join(s, errp) || !swai_net_up(s, errp)) {
        swai_leave(s);
        swai_card_attach(&s->card, NULL, NULL);
        g_free(s->ldm);
        s->ldm = NULL;
        qemu_bh_delete(s->bh);
        goto err_msix;
    }
    qemu_cond_init(&s->cp_cond);
    s->cp_stop = false;
    qemu_thread_create(&s->cp_thread, "swai-mpe", swai_cp_thread, s,
                       QEMU_THREAD_JOINABLE);
    return;

err_msix:
    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
err_pcie:
    pcie_cap_exit(pdev);
}

static void swai_exit(PCIDevice *pdev)
{
    SwaiState *s = SWAI(pdev);

    swai_leave(s);
    swai_net_down(s);
    /* The thread needs the BQL to notice cp_stop: let go while joining. */
    s->cp_stop = true;
    qemu_cond_signal(&s->cp_cond);
    bql_unlock();
    qemu_thread_join(&s->cp_thread);
    bql_lock();
    qemu_cond_destroy(&s->cp_cond);
    swai_card_attach(&s->card, NULL, NULL);
    g_free(s->ldm);
    s->ldm = NULL;

    qemu_bh_delete(s->bh);
    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
    pcie_cap_exit(pdev);
}

static void swai_reset_hold(Object *obj, ResetType type)
{
    SwaiState *s = SWAI(obj);

    swai_card_reset(&s->card);
}

static const Property swai_properties[] = {
    DEFINE_PROP_UINT32("hbm-mb", SwaiState, props.hbm_mb, SWAI_HBM_MB_DEFAULT),
    /* Default: half of hbm-mb, resolved by swai_card_props_validate(). */
    DEFINE_PROP_UINT32("local-mb", SwaiState, props.local_mb,
                       SWAI_LOCAL_MB_AUTO),
    DEFINE_PROP_UINT32("cpes", SwaiState, props.cpes, SWAI_CPES_DEFAULT),
    DEFINE_PROP_UINT32("ldm-kb", SwaiState, props.ldm_kb, SWAI_LDM_KB_DEFAULT),
    /* Timing model, datasheet §14: names and defaults from swai-timing.h. */
#define SWAI_TIMING_PROP(f, name, def, kind) \
    DEFINE_PROP_UINT32(name, SwaiState, props.t.f, def),
    SWAI_TIMING_PROPS(SWAI_TIMING_PROP)
#undef SWAI_TIMING_PROP
    /* The card-to-card fabric, datasheet §15. */
    DEFINE_PROP_LINK("fabric", SwaiState, fabric, TYPE_SWAI_FABRIC,
                     SwaiFabricState *),
    DEFINE_PROP_UINT32("fabric-card", SwaiState, fabric_card, UINT32_MAX),
    /* The NIC port, datasheet §16. */
    DEFINE_NIC_PROPERTIES(SwaiState, net_conf),
    DEFINE_PROP_UINT32("nic-node", SwaiState, nic_node, UINT32_MAX),
    /* Tests of the NIC's reliable delivery: frames it loses or reorders. */
    DEFINE_PROP_UINT32("nic-drop-pm", SwaiState, nic_drop_pm, 0),
    DEFINE_PROP_UINT32("nic-reorder-pm", SwaiState, nic_reorder_pm, 0),
};

/*
 * Queues, jobs in flight, LDM, interrupt state, MMU state and work in
 * flight (soft reset, MMU probe) are not described for migration, so
 * refuse to migrate rather than lose them silently.
 */
static const VMStateDescription vmstate_swai = {
    .name = TYPE_SWAI,
    .unmigratable = 1,
};

static void swai_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = swai_realize;
    k->exit = swai_exit;
    k->vendor_id = SWAI_PCI_VENDOR_ID;
    k->device_id = SWAI_PCI_DEVICE_ID;
    k->revision = SWAI_PCI_REVISION;
    k->class_id = SWAI_PCI_CLASS;
    rc->phases.hold = swai_reset_hold;
    dc->desc = "SW-AI accelerator card (4 core groups, HBM)";
    dc->vmsd = &vmstate_swai;
    device_class_set_props(dc, swai_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo swai_info = {
    .name = TYPE_SWAI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(SwaiState),
    .class_init = swai_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void swai_register_types(void)
{
    type_register_static(&swai_info);
}

type_init(swai_register_types)
