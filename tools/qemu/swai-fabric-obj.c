/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-fabric-obj.c - the swai-fabric QEMU device (swai-fabric-obj.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"

#include "swai-fabric-obj.h"

static void swai_fabric_realize(DeviceState *dev, Error **errp)
{
    SwaiFabricState *s = SWAI_FABRIC(dev);
    struct swai_topo t;
    char why[512];

    if (!s->topology) {
        error_setg(errp, "swai-fabric needs topology=FILE (a topology file, "
                   "Documentation/cluster.md)");
        return;
    }
    if (swai_topo_load(&t, s->topology, why, sizeof(why))) {
        error_setg(errp, "swai-fabric: %s", why);
        return;
    }
    s->fabric = swai_fabric_new(&t, why, sizeof(why));
    if (!s->fabric) {
        error_setg(errp, "swai-fabric %s: %s", s->topology, why);
    }
}

static void swai_fabric_unrealize(DeviceState *dev)
{
    SwaiFabricState *s = SWAI_FABRIC(dev);

    /* Cards hold a reference through their link: none is left here. */
    swai_fabric_free(s->fabric);
    s->fabric = NULL;
}

static const Property swai_fabric_props[] = {
    DEFINE_PROP_STRING("topology", SwaiFabricState, topology),
};

static void swai_fabric_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = swai_fabric_realize;
    dc->unrealize = swai_fabric_unrealize;
    dc->desc = "SW-AI card-to-card fabric (the links of a topology file)";
    dc->hotpluggable = false;
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    device_class_set_props(dc, swai_fabric_props);
}

static const TypeInfo swai_fabric_info = {
    .name = TYPE_SWAI_FABRIC,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(SwaiFabricState),
    .class_init = swai_fabric_class_init,
};

static void swai_fabric_register_types(void)
{
    type_register_static(&swai_fabric_info);
}

type_init(swai_fabric_register_types)
