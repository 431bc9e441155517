/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libwind: what the library's sources share and its users do not see. */
#ifndef LIBWIND_INTERNAL_H
#define LIBWIND_INTERNAL_H

/* The library is built with -fvisibility=hidden: only these are exported */
#define WIND_EXPORT	__attribute__((visibility("default")))

#endif /* LIBWIND_INTERNAL_H */
