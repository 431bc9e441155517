# SPDX-License-Identifier: GPL-2.0
#
# Wind: top-level Makefile.
#
#   make              build wind.ko, userspace/ and selftests/
#   make check        build, unit tests, boot the VM, run the selftests in it,
#                     check the guest kernel log; ends with "N passed, N failed"
#   make demo         boot a QEMU cluster and run the S-DSM apps over Wind
#                     and UDP (scripts/demos/demo)
#   make bench-dsm    the papers' experiments on the cluster (scripts/benchmarks/bench-dsm)
#   make bench-mpi    fi_pingpong and an mpi4py ping-pong over Wind, TCP, UDP,
#                     Soft-RoCE; MPI one-sided latency over Wind and TCP
#   make bench-hpcc   the HPC Challenge on two VMs over Wind and TCP
#                     (scripts/benchmarks/bench-hpcc)
#                     (scripts/benchmarks/bench-mpi)
#   make check-debug  the selftests on a debug kernel (scripts/test/check-debug)
#   make vm CMD=...   run a command in the VM (no CMD: interactive shell)
#   make unit         host-side unit tests (tests/unit)
#   make deb          the Debian packages, in build/deb/ (scripts/pkg/mkdeb)
#   make clean
#
# KVER: the kernel to build for and boot (default: the newest installed
# Debian kernel with /boot/vmlinuz-KVER and /lib/modules/KVER/build; never
# the host's own uname -r).  KDIR: its build tree.
#
# On a fresh machine no kernel is installed when this file is parsed, so
# KVER is empty here.  Every target that needs one (all, demo, vm, bench
# ...) therefore first runs `deps` (scripts/deps/ensure-deps: installs what is
# missing when root) and then does its work in a new make, which resolves
# KVER again, after the kernels are there.

ifeq ($(strip $(KVER)),)
KVER := $(shell $(CURDIR)/scripts/kernel/kver)
endif
KDIR ?= /lib/modules/$(KVER)/build
export KVER

# Options for scripts/qemu/vm (make vm VMFLAGS="--cpus 1 --mem 1G").
VMFLAGS ?=
# make vm CMD='echo $WIND_ROOT': taken literally, no make expansion of $.
ifdef CMD
override CMD := $(value CMD)
export CMD
endif

all: deps
	+@$(MAKE) --no-print-directory build

# The build itself, without the dependency check (scripts/test/check runs that).
build: module userspace selftests

# --- module -----------------------------------------------------------------

module:
ifneq ($(wildcard $(CURDIR)/Kbuild),)
	@if [ -z "$(KVER)" ] || [ ! -e "$(KDIR)/Makefile" ]; then \
		echo "make: no kernel build tree ($(or $(KDIR),KVER unknown)): run scripts/deps/install-deps.sh as root" >&2; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
else
	@echo "make: no Kbuild file: wind.ko not built"
endif

# --- userspace and selftests ------------------------------------------------

userspace:
ifneq ($(wildcard $(CURDIR)/userspace/Makefile),)
	$(MAKE) -C userspace
endif

selftests:
	$(MAKE) -C selftests

unit: deps
ifneq ($(wildcard $(CURDIR)/tests/unit/Makefile),)
	$(MAKE) -C tests/unit run
else
	@echo "make: no tests/unit/Makefile: no unit tests"
endif

# --- the VM -----------------------------------------------------------------

# make check [TESTS="wind_socket wind_module.sh"] [KVER=...]
check:
	@$(CURDIR)/scripts/test/check

# Each of these: deps, then the build and the run in a new make (run-TARGET)
# that sees the kernels deps may just have installed.
vm demo demo-api bench-dsm bench bench-mpi bench-hpcc fuzz: deps
	+@$(MAKE) --no-print-directory run-$@

run-vm: build
	$(CURDIR)/scripts/qemu/vm $(VMFLAGS) $(if $(CMD),-- /bin/sh -c "$$CMD")

run-demo: build
	$(CURDIR)/scripts/demos/demo

# The single-VM tour of the socket API (what make demo was before the cluster)
run-demo-api: build
	$(CURDIR)/scripts/qemu/vm $(VMFLAGS) -- $(CURDIR)/scripts/demos/demo-guest.sh

run-bench-dsm: build
	$(CURDIR)/scripts/benchmarks/bench-dsm

# Builds (once, cached in build/debug-kernel) a debug kernel from Debian's
# linux-source-6.1 and runs the selftests on it.
check-debug:
	@$(CURDIR)/scripts/test/check-debug

# Installs what is missing (scripts/deps/install-deps.sh) if root, else says so.
deps:
	@$(CURDIR)/scripts/deps/ensure-deps

# --- style, sparse, kdoc: static checks of the module -----------------------

WIND_KSRC := $(CURDIR)/build/ksrc/scripts
# netlink-gen.[ch] are ynl-gen-c's output, checked against the spec instead
# (scripts/kernel/ynl-gen --check, in make unit)
WIND_KSOURCES := $(filter-out %/trace.h %/netlink-gen.c %/netlink-gen.h,$(wildcard $(CURDIR)/net/wind/*.[ch])) \
		 $(CURDIR)/include/uapi/linux/wind.h

# Each: deps, then the check in a new make (sparse needs KDIR).
style sparse kdoc lint: deps
	+@$(MAKE) --no-print-directory run-$@

# checkpatch --strict over every file of the module and its uapi header.
# The TRACE_EVENT() layout of trace.h (open-ended TP_PROTO( lines, field
# lists in macros, EM() tables) is what every kernel trace header looks
# like, and what checkpatch flags in all of them: those types only are
# left out there.
run-style:
	@$(CURDIR)/scripts/kernel/kernel-tools-extract
	$(WIND_KSRC)/checkpatch.pl --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(WIND_KSOURCES)
	$(WIND_KSRC)/checkpatch.pl --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,COMPLEX_MACRO,MACRO_ARG_REUSE,TRAILING_SEMICOLON,CAMELCASE \
		-f $(CURDIR)/net/wind/trace.h

# sparse on every file (C=2 checks even up-to-date objects)
run-sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules 2>&1 | tee build/sparse.log
	@! grep -E "warning:|error:" build/sparse.log

# kernel-doc comments of every function that has one must parse cleanly
run-kdoc:
	@$(CURDIR)/scripts/kernel/kernel-tools-extract
	$(WIND_KSRC)/kernel-doc -none -Werror $(wildcard $(CURDIR)/net/wind/*.[ch])

run-lint: run-style run-sparse run-kdoc

# The fuzzers at full strength, in one VM (selftests/wind/fuzz-full.sh):
# the packet fuzzer with a million crafted packets (make check runs it with
# 20000), then the syscall fuzzer with 100000 operations, with the
# receiver's counters, memory before and after, rmmod and the kernel log.
# The kselftest harness gives a TEST() 30 s; a million packets take
# minutes, so wind_fuzz is built again here with a longer default.
WIND_FUZZ_PACKETS ?= 1000000
WIND_SYSFUZZ_OPS ?= 100000
FUZZ_DIR := $(CURDIR)/build/fuzz
run-fuzz: build
	rm -rf $(FUZZ_DIR) && mkdir -p $(FUZZ_DIR) && cp -r build/kselftest $(FUZZ_DIR)/ksft
	sed -i 's/^#define TEST_TIMEOUT_DEFAULT 30$$/#define TEST_TIMEOUT_DEFAULT 36000/' \
		$(FUZZ_DIR)/ksft/kselftest_harness.h
	grep -q 'TEST_TIMEOUT_DEFAULT 36000' $(FUZZ_DIR)/ksft/kselftest_harness.h
	$(CC) -isystem $(FUZZ_DIR)/ksft -Iinclude/uapi -Iselftests/wind -Wall -Wextra \
		-Werror -std=gnu11 -O2 -pthread selftests/wind/wind_fuzz.c \
		selftests/wind/lib.c -o $(FUZZ_DIR)/wind_fuzz
	$(CURDIR)/scripts/qemu/vm $(VMFLAGS) --timeout $${VM_TIMEOUT:-7200} \
		--env WIND_FUZZ_PACKETS=$(WIND_FUZZ_PACKETS) \
		--env WIND_SYSFUZZ_OPS=$(WIND_SYSFUZZ_OPS) \
		--env WIND_FUZZ_BIN=$(FUZZ_DIR)/wind_fuzz \
		-- $(CURDIR)/selftests/wind/fuzz-full.sh


# --- install / uninstall (scripts/pkg/install.sh; run make first) ---------
# make install [DESTDIR=/tmp/stage] [PREFIX=/usr/local]: wind.ko to
# /lib/modules/$(KVER)/extra (+ depmod unless DESTDIR), linux/wind.h to
# /usr/include, libwind, libwind-preload.so, man pages, windctl under PREFIX.

PREFIX ?= /usr/local
install uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" $(CURDIR)/scripts/pkg/install.sh $@

.PHONY: install uninstall
# --- end install / uninstall ----------------------------------------------

# --- deb: the Debian packages (scripts/pkg/mkdeb, debian/README.Debian) ----
# Built with dpkg-buildpackage out of a copy in build/deb/, where the .debs
# land; lintian over them.  No kernel needed: DKMS builds wind.ko on the
# machine the packages are installed on.
deb:
	$(CURDIR)/scripts/pkg/mkdeb

.PHONY: deb
# --- end deb ---------------------------------------------------------------

# --- bench: Wind beside UDP and TCP (scripts/benchmarks/bench, bench/README.md) ---
# Boots the VM once (about 8 minutes); writes bench/results/ (results.md,
# results.json, PNG plots).  WIND_BENCH_QUICK=1 for short runs.
run-bench: build
	$(CURDIR)/scripts/benchmarks/bench

.PHONY: bench run-bench

# --- bench-mpi: libfabric and MPI over Wind beside TCP (scripts/benchmarks/bench-mpi) ---
# One boot: fi_pingpong over wind, tcp;ofi_rxm, udp;ofi_rxd, verbs;ofi_rxm
# (Soft-RoCE) and the raw Wind round trip, then 64 KiB and 1 MiB over wind
# and tcp;ofi_rxm with each side on its own vCPU (PIN=1); an mpi4py
# ping-pong over Wind, over Open MPI's TCP and over Soft-RoCE; MPI one-sided
# latency (mpi_osc_lat) over wind and tcp;ofi_rxm, osc rdma and osc pt2pt.
# BENCH_MPI_ONLY="fabric pingpong osc" picks parts (scripts/benchmarks/bench-mpi).
BENCH_MPI_ENV := BENCH_MPI_ONLY BENCH_MPI_FABRIC BENCH_MPI_PIN_ROUNDS \
	BENCH_MPI_SIZES BENCH_MPI_ITERS BENCH_MPI_OSC_REPS BENCH_MPI_OSC_WARMUP \
	BENCH_MPI_OSC_BUSY BENCH_MPI_OSC_TIMEOUT
run-bench-mpi: build
	VM_ENV="$(BENCH_MPI_ENV)" $(CURDIR)/scripts/qemu/vm -- $(CURDIR)/scripts/benchmarks/bench-mpi

.PHONY: bench-mpi run-bench-mpi

# --- bench-hpcc: the HPC Challenge on two VMs (scripts/benchmarks/bench-hpcc) ---
# hpcc on 2 ranks across scripts/qemu/cluster's two VMs, over the provider wind and
# over tcp;ofi_rxm: hpcc's verdicts and its summary figures side by side.
run-bench-hpcc: build
	$(CURDIR)/scripts/benchmarks/bench-hpcc

.PHONY: bench-hpcc run-bench-hpcc
# --- end bench ----------------------------------------------------------------

# --- clean ------------------------------------------------------------------

clean:
ifneq ($(wildcard $(CURDIR)/Kbuild),)
	@if [ -e "$(KDIR)/Makefile" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
endif
ifneq ($(wildcard $(CURDIR)/userspace/Makefile),)
	$(MAKE) -C userspace clean
endif
ifneq ($(wildcard $(CURDIR)/tests/unit/Makefile),)
	-$(MAKE) -C tests/unit clean
endif
	$(MAKE) -C selftests clean
	rm -rf build


.PHONY: style sparse kdoc lint run-style run-sparse run-kdoc run-lint fuzz run-fuzz all build module userspace selftests unit check vm demo demo-api bench-dsm run-vm run-demo run-demo-api run-bench-dsm check-debug deps clean
