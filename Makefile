# SPDX-License-Identifier: GPL-2.0
#
# hyperframe: the front door. Every target installs what it needs first
# (make deps) when run as root on Debian 12.
#
#   make            module for every kernel line, userspace, selftests
#   make check      everything, unit tests, selftests in a QEMU guest per line
#   make check-debug  the selftests on the debug kernel (KASAN, lockdep,
#                   kmemleak, UBSAN, KFENCE), building it unless cached
#   make debug-kernel build the debug kernel, or find it cached
#   make demo       an all-to-all over hyperframe and over TCP side by side
#                   in a guest, with what each puts on the wire and a plot
#   make bench      the side-by-side benchmark in a guest: results.json,
#                   results.md and plots in build/bench/KERNEL
#                   (BENCH=--quick: shorter; --link-rate=RATE: the link
#                   regime's rate, 50mbit; --no-incast7: no 8-node incast)
#   make observe    hfctl probe and hfctl trace over TCP and hyperframe
#                   transfers side by side, in a guest
#   make deps       install the Debian packages (idempotent)
#   make deb        the Debian packages (debian/) into build/deb, lintian
#   make deb-check  make deb, then install, use and remove them in a guest
#                   per line (DKMS, autoload; about 16 min a line)
#   make vm CMD=... run a command in a guest with the module loaded
#   make fuzz       run the protocol-core fuzzer (FUZZ_SECONDS, default 600)
#   make soak       mixed traffic under netem loss in a guest for DURATION
#                   seconds (default 600) on KERNEL, then a report
#   make clean
#
# Variables: KERNELS (lines to build/test, default "6.1 6.12"), KERNEL (the
# one line for demo/bench/vm/soak, default 6.1; "debug" for the debug kernel),
# KDIR (build against a kernel tree).

KERNELS ?= 6.1 6.12
KERNEL ?= 6.1
JOBS ?= $(shell nproc)
BUILD := $(CURDIR)/build

.PHONY: all deps module userspace selftests unit check check-debug debug-kernel \
	demo observe bench vm fuzz soak deb deb-check clean help

all: deps module userspace selftests

help:
	@sed -n '3,30p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@tools/deps.sh

module: deps
	@for line in $(KERNELS); do \
		echo "== hyperframe.ko for $$line"; \
		tools/build-module.sh $$line >/dev/null || exit 1; \
	done

userspace: deps
	cmake -S userspace -B $(BUILD)/userspace -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD)/userspace -j$(JOBS)

selftests: deps
	tools/build-selftests.sh

unit: userspace
	ctest --test-dir $(BUILD)/userspace --output-on-failure -j$(JOBS)

check: deps
	tools/check.sh $(KERNELS)

# The debug line's own selftest install and logs, so it can run beside
# "make check".
check-debug: deps
	HF_KSFT_DIR=$(BUILD)/ksft-debug HF_CHECK_LOGS=$(BUILD)/check-debug \
		tools/check.sh --suite-only debug

debug-kernel: deps
	tools/debug-kernel/build.sh

demo: deps
	tools/demo.sh $(KERNEL)

observe: deps
	tools/demo.sh $(KERNEL) tools/demo/observe.sh

# BENCH=--quick: shorter runs and fewer sizes; also --link-rate=RATE and
# --no-incast7 (tools/bench/guest.sh).
bench: deps
	tools/bench/bench.sh $(KERNEL) $(BENCH)

fuzz: deps
	tools/fuzz.sh $(or $(FUZZ_SECONDS),600)

vm: deps
	$(if $(filter debug,$(KERNEL)),tools/debug-kernel/build.sh >/dev/null)
	tools/build-module.sh $(KERNEL) >/dev/null
	tools/vm/run.sh --kernel $(KERNEL) -- $(CMD)

soak: deps
	tools/soak.sh $(KERNEL) $(or $(DURATION),600)

deb: deps
	tools/deb.sh

deb-check: deps
	tools/deb-check.sh $(KERNELS)

clean:
	rm -rf $(BUILD)
