/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swai-fabric-obj.h - the card-to-card fabric as a QEMU device on no bus,
 * the way hw/nvme's nvme-subsys groups controllers:
 *
 *     -device swai-fabric,id=fab0,topology=/path/mesh8.json
 *     -device swai,fabric=fab0,fabric-card=0 -device swai,fabric=fab0,...
 *
 * It reads the topology file (tools/cluster/swai-topo.h) when it is
 * realized, before the cards that name it, and holds the fabric
 * (swai-fabric.h) they join.
 */
#ifndef SWAI_FABRIC_OBJ_H
#define SWAI_FABRIC_OBJ_H

#include "hw/qdev-core.h"

#include "swai-fabric.h"

#define TYPE_SWAI_FABRIC "swai-fabric"
OBJECT_DECLARE_SIMPLE_TYPE(SwaiFabricState, SWAI_FABRIC)

struct SwaiFabricState {
    DeviceState parent_obj;

    char *topology;             /* the file, as given */
    struct swai_fabric *fabric; /* NULL until realized */
    unsigned members;           /* cards joined */
};

#endif /* SWAI_FABRIC_OBJ_H */
