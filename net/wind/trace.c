// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints of net/wind/trace.h are defined here, once.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
