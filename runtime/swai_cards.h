/* SPDX-License-Identifier: MIT */
/*
 * swai_cards.h - find the SW-AI cards of this system.
 *
 * libdrm's device enumeration (drmGetDevices2) does not list accel nodes, so
 * cards are found in /sys/class/accel: every accelN whose PCI device is
 * bound to the swai driver.  Shared by libsdaa, swai-smi and the selftests.
 */
#ifndef SWAI_CARDS_H
#define SWAI_CARDS_H

/* Store the minors N of the swai cards (/dev/accel/accelN), ascending, in
 * @minors; return how many (at most @max).
 */
int swai_find_minors(int *minors, int max);

#endif /* SWAI_CARDS_H */
