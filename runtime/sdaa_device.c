// SPDX-License-Identifier: MIT
/*
 * sdaa_device.c - device management: count, current device (per thread),
 * properties, versions.
 */
#include <stdio.h>
#include <string.h>

#include "sdaa_internal.h"

static _Thread_local int current_device;

SDAA_API sdaaError_t sdaaRuntimeGetVersion(int *version)
{
	if (!version)
		return sdaa_error(sdaaErrorInvalidValue);
	*version = SDAA_VERSION;
	return sdaaSuccess;
}

/* 0 when no driver answers, as cudaDriverGetVersion does. */
SDAA_API sdaaError_t sdaaDriverGetVersion(int *version)
{
	const struct sdaa_runtime *rt;

	if (!version)
		return sdaa_error(sdaaErrorInvalidValue);
	rt = sdaa_runtime();
	*version = 1000 * rt->uapi_major + 10 * rt->uapi_minor;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaGetDeviceCount(int *count)
{
	const struct sdaa_runtime *rt;

	if (!count)
		return sdaa_error(sdaaErrorInvalidValue);
	rt = sdaa_runtime();
	*count = rt->ndevices;
	return sdaa_error(rt->init_error);
}

sdaaError_t sdaa_device_valid(int device)
{
	const struct sdaa_runtime *rt = sdaa_runtime();

	if (rt->init_error)
		return rt->init_error;
	if (device < 0 || device >= rt->ndevices)
		return sdaaErrorInvalidDevice;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaSetDevice(int device)
{
	sdaaError_t err = sdaa_device_valid(device);

	if (err)
		return sdaa_error(err);
	current_device = device;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaGetDevice(int *device)
{
	const struct sdaa_runtime *rt;

	if (!device)
		return sdaa_error(sdaaErrorInvalidValue);
	rt = sdaa_runtime();
	if (rt->init_error)
		return sdaa_error(rt->init_error);
	*device = current_device;
	return sdaaSuccess;
}

SDAA_API sdaaError_t sdaaGetDeviceProperties(struct sdaaDeviceProp *prop, int device)
{
	const struct sdaa_runtime *rt;
	const struct drm_swai_query_device *q;
	const struct sdaa_device *d;
	sdaaError_t err;

	if (!prop)
		return sdaa_error(sdaaErrorInvalidValue);
	err = sdaa_device_valid(device);
	if (err)
		return sdaa_error(err);
	rt = sdaa_runtime();
	d = &rt->devices[device];
	q = &d->card->q;
	memset(prop, 0, sizeof(*prop));
	snprintf(prop->name, sizeof(prop->name), "SW-AI card %d CG %d",
		 d->card->minor, d->cg);
	prop->card = d->card->minor;
	prop->coreGroup = d->cg;
	prop->coreGroupsPerCard = (int)q->num_core_groups;
	prop->cpeCount = (int)q->cpes_per_cg;
	prop->ldmPerCpe = q->ldm_size;
	prop->totalLocalMem = q->local_per_cg;
	prop->totalGlobalMem = q->global_size;
	prop->hbmPerCoreGroup = q->hbm_per_cg;
	prop->globalGranule = q->global_granule;
	prop->pciDomainID = (int)q->pci_domain;
	prop->pciBusID = (int)(q->pci_bdf >> 8);
	prop->pciDeviceID = (int)((q->pci_bdf >> 3) & 0x1f);
	prop->pciFunctionID = (int)(q->pci_bdf & 7);
	prop->major = (int)(q->hw_version >> 16);
	prop->minor = (int)(q->hw_version & 0xffff);
	prop->capabilities = q->capabilities;
	return sdaaSuccess;
}
