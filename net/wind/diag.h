/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock_diag for IPPROTO_WIND (diag.c), where the kernel has inet_diag.
 */
#ifndef _WIND_DIAG_H
#define _WIND_DIAG_H

#ifdef WIND_HAVE_DIAG
int wind_diag_init(void);
void wind_diag_exit(void);
#else
static inline int wind_diag_init(void) { return 0; }
static inline void wind_diag_exit(void) { }
#endif

#endif /* _WIND_DIAG_H */
