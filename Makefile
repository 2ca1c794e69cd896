# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# rdma_mcm: out-of-tree build, install, and the project's test entry points.
#
#   make                  build rdma_mcm.ko against $(KDIR)
#   make KDIR=/path       ... against another kernel's build tree
#   sudo make install     install it (modules_install + depmod)
#   make demo             boot the bench VM and show rdma_mcm at work
#   make check            everything CI runs; ends with "N passed, N failed"
#   make bench            rdma_mcm vs librdmacm in the VM: results/bench/
#   make deb              Debian packages (DKMS module, library, tool): out/deb/
#   make soak             stress + fuzz at length on every kernel (SOAK=s)
#   make load-test        the VM suite 10 times on 6.12 beside a CPU hog
#   make lint | kunit | vm    one part of 'make check' (kunit: its three
#                         KUnit runs; as root, like make check: 7.2's
#                         source comes through a Debian unstable root)
#   make kcsan            KCSAN over the KUnit suites (x86_64 in QEMU)
#   make shell KERNEL=6.12    an interactive shell in the bench VM

KVER	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KVER)/build
KERNEL	?= 6.1
SOAK	?= 600

# kbuild (make -C $(KDIR) M=...) reads the Kbuild file, not this one.

.PHONY: all modules install clean check demo bench deb soak load-test lint kunit kcsan vm shell deps help

all: modules

modules: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_RDMA_MCM=m modules

install: check-kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_RDMA_MCM=m modules_install
	depmod -a $(KVER)

clean:
	@if [ -f $(KDIR)/Makefile ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf out

.PHONY: check-kdir
check-kdir:
	@if [ ! -f $(KDIR)/Makefile ]; then \
		echo "error: no kernel build tree at $(KDIR)."; \
		echo "Install the headers of the running kernel:"; \
		echo "    sudo apt-get install linux-headers-$(KVER)"; \
		echo "or point at another kernel: make KDIR=/path/to/build"; \
		exit 1; fi

check:
	@scripts/check

demo:
	@scripts/deps
	@scripts/vm-run --kernel $(KERNEL) --demo

bench:
	@scripts/deps --bench
	@scripts/bench

deb:
	@scripts/deps --deb
	@scripts/deb

soak:
	@scripts/deps
	@scripts/vm-run --soak $(SOAK) --test stress --test fuzz

load-test:
	@scripts/deps
	@scripts/load-test

lint:
	@scripts/deps
	@scripts/lint

kunit:
	@scripts/check --kunit

kcsan:
	@scripts/check --kcsan

vm:
	@scripts/deps
	@scripts/vm-run --jobs "$${RDMA_MCM_VM_JOBS:-2}"

shell:
	@scripts/deps
	@scripts/vm-run --kernel $(KERNEL) --shell

deps:
	@scripts/deps

help:
	@sed -n '3,14p' Makefile | sed 's/^# \{0,1\}//'
