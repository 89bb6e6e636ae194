/* SPDX-License-Identifier: MIT */
/*
 * sdaa_fabric.h - reachability of cards over their fabric.
 */
#ifndef SDAA_FABRIC_H
#define SDAA_FABRIC_H

/* Can card @a's jobs reach card @b's memory (indices of sdaa_runtime.cards)? */
int sdaa_fabric_reaches(int a, int b);

#endif /* SDAA_FABRIC_H */
