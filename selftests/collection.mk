# SPDX-License-Identifier: GPL-2.0
#
# What the collections of Wind selftests share: included by
# selftests/COLLECTION/Makefile, which first sets
#
#   SELFDIR      its own directory (the collection is named after it)
#   NEWER_ONLY   programs that run by default on the newer kernel only
#                (uname -r in the VM not 6.1); TESTS= runs them anywhere
#   MATRIX_PROGS, MATRIX_OPT_PROGS
#                more programs, made by the collection's own rules: the
#                first run by default, the second by TESTS= only
#
# Naming (no need to edit a Makefile to add a test):
#   wind_<topic>.c        a C test (kselftest_harness.h), built and run
#   wind_<topic>.sh/.py   a test script, run (must be executable, or have #!)
#   any other *.c         a helper program built but not run by the runner
#                         (TEST_GEN_PROGS_EXTENDED), e.g. a peer for a script
# selftests/wind/lib*.c, the helpers (lib.h, harness.h), are linked into
# every C program of every collection.
#
# The kselftest framework is not in the repository: scripts/kernel/kselftest-extract
# takes it from Debian's linux-source-6.1 tarball into build/kselftest/
# ($(KSFT_DIR)), once.

TOP        := $(abspath $(SELFDIR)/../..)
COLLECTION := $(notdir $(SELFDIR))
LIB_DIR    := $(TOP)/selftests/wind
KSFT_DIR   ?= $(TOP)/build/kselftest
KSFT_STAMP := $(KSFT_DIR)/.extracted

CC       ?= gcc
CFLAGS   := -isystem $(KSFT_DIR) -I../../include/uapi -Wall -Wextra -Werror -std=gnu11 -O2 -pthread
CFLAGS   += $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
CFLAGS   += $(USERCFLAGS)
LDFLAGS  := -pthread $(USERLDFLAGS)
LDLIBS   := -Wl,--as-needed $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null) -Wl,--no-as-needed

TEST_SRCS     := $(sort $(wildcard $(SELFDIR)/wind_*.c))
LIB_SRCS      := $(sort $(wildcard $(LIB_DIR)/lib*.c))
LIB_HDRS      := $(sort $(wildcard $(LIB_DIR)/*.h $(SELFDIR)/*.h))
EXTENDED_SRCS := $(sort $(filter-out $(TEST_SRCS) $(LIB_SRCS),$(wildcard $(SELFDIR)/*.c)))

TEST_GEN_PROGS          := $(notdir $(TEST_SRCS:.c=))
TEST_GEN_PROGS_EXTENDED := $(notdir $(EXTENDED_SRCS:.c=))
TEST_PROGS              := $(notdir $(sort $(wildcard $(SELFDIR)/wind_*.sh $(SELFDIR)/wind_*.py)))
LIB_OBJS                := $(notdir $(LIB_SRCS:.c=.o))

# make run_tests TESTS="wind_foo wind_bar.sh" runs only those (names not
# in this collection are another's).  UNAME_R: the kernel the tests run
# on, to list them for it elsewhere (make emit_tests UNAME_R=6.1.0-57-amd64).
UNAME_R ?= $(shell uname -r)
ON_61 := $(filter 6.1.%,$(UNAME_R))
RUN_LIST := $(filter-out $(if $(ON_61),$(NEWER_ONLY)), \
	    $(TEST_GEN_PROGS) $(MATRIX_PROGS) $(TEST_PROGS))
ifneq ($(TESTS),)
RUN_LIST := $(filter $(TESTS),$(TEST_GEN_PROGS) $(MATRIX_PROGS) $(MATRIX_OPT_PROGS) $(TEST_PROGS))
endif

# Per-program timeout for the runner, from ./settings (kselftest format).
TIMEOUT := $(or $(shell sed -n 's/^timeout=//p' $(SELFDIR)/settings 2>/dev/null),45)

UAPI_HDRS := $(wildcard $(TOP)/include/uapi/linux/*.h)

all: $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(MATRIX_PROGS) $(MATRIX_OPT_PROGS)

$(KSFT_STAMP):
	$(TOP)/scripts/kernel/kselftest-extract $(KSFT_DIR)

$(LIB_OBJS): %.o: $(LIB_DIR)/%.c $(LIB_HDRS) $(UAPI_HDRS) $(KSFT_STAMP)
	$(CC) $(CFLAGS) -c $< -o $@

$(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED): %: $(SELFDIR)/%.c $(LIB_OBJS) $(LIB_HDRS) $(UAPI_HDRS) $(KSFT_STAMP)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB_OBJS) $(LDLIBS) -o $@

# The kselftest runner (runner.sh from the extracted tree) prints KTAP: one
# "ok N selftests: COLLECTION: PROG" line per program, and each program's
# own output (its KTAP subtests) prefixed with "# ".  BASE_DIR is this
# directory's parent so that the runner reads ./settings (timeout) and
# names the collection after this directory; tap_prefix is pointed at the
# extracted prefix.pl, and tap_timeout (the runner's) also prints "time:
# PROG took N s" in its output.  KSFT_FIRST=N (selftests/Makefile, which
# runs every collection in one KTAP document and prints its header): no
# header, the first program is number N.
run_tests: all
	@cd $(SELFDIR) && export WIND_ROOT=$(TOP) && \
	BASE_DIR=$(abspath $(SELFDIR)/..) && . $(KSFT_DIR)/kselftest/runner.sh && \
	tap_prefix() { $(KSFT_DIR)/kselftest/prefix.pl; } && \
	tap_timeout() { t0=$$(date +%s); \
		/usr/bin/timeout --foreground "$$kselftest_timeout" /usr/bin/timeout "$$kselftest_timeout" $$1; \
		rc=$$?; echo "# time: $$(basename $${1%% *}) took $$(( $$(date +%s) - t0 )) s"; return $$rc; } && \
	kselftest_default_timeout=$(TIMEOUT) && \
	$(if $(KSFT_FIRST),test_num=$(KSFT_FIRST) && \
		for t in $(RUN_LIST); do run_one $(COLLECTION) $(SELFDIR)/$$t $$test_num; \
			test_num=$$((test_num + 1)); done, \
		run_many $(addprefix $(SELFDIR)/,$(RUN_LIST)))

emit_tests:
	@for t in $(RUN_LIST); do echo "$(COLLECTION):$$t"; done

clean:
	$(RM) $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(MATRIX_PROGS) $(MATRIX_OPT_PROGS) $(LIB_OBJS)

.PHONY: all run_tests emit_tests clean
