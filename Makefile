# SPDX-License-Identifier: GPL-2.0
#
# hyperframe: the front door. Every target installs what it needs first
# (make deps) when run as root on Debian 12.
#
#   make            module for every kernel line, userspace, selftests
#   make check      everything, unit tests, selftests in a QEMU guest per line
#   make demo       boot a guest, load the module, show it working
#   make deps       install the Debian packages (idempotent)
#   make vm CMD=... run a command in a guest with the module loaded
#   make fuzz       run the protocol-core fuzzer (FUZZ_SECONDS, default 600)
#   make clean
#
# Variables: KERNELS (lines to build/test, default "6.1 6.12"), KERNEL (the
# one line for demo/vm, default 6.1), KDIR (build against a kernel tree).

KERNELS ?= 6.1 6.12
KERNEL ?= 6.1
JOBS ?= $(shell nproc)
BUILD := $(CURDIR)/build

.PHONY: all deps module userspace selftests unit check demo vm fuzz clean help

all: deps module userspace selftests

help:
	@sed -n '3,17p' Makefile | sed 's/^# \{0,1\}//'

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

demo: deps
	tools/demo.sh $(KERNEL)

fuzz: deps
	tools/fuzz.sh $(or $(FUZZ_SECONDS),600)

vm: deps
	tools/build-module.sh $(KERNEL) >/dev/null
	tools/vm/run.sh --kernel $(KERNEL) -- $(CMD)

clean:
	rm -rf $(BUILD)
