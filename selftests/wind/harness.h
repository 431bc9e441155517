/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness with a longer per-test timeout: under TCG on a
 * shared host the netns setup of a fixture alone can take many seconds
 * (and a KASAN/lockdep kernel is five times slower: make check-debug),
 * and the harness's 30 s default is meant as a hang detector, not as a
 * bound on how long a test may take.  The runner's per-program timeout
 * (./settings, scaled by WIND_TIMEOUT_SCALE) is the bound.
 */
#ifndef _WIND_HARNESS_H
#define _WIND_HARNESS_H

#include "kselftest_harness.h"

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 600

#endif
