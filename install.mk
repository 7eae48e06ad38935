# install.mk - installing ssdemu like other out-of-tree modules (included
# by the Makefile):
#
#   make install     ssdemu.ko into $(DESTDIR)/lib/modules/$(KVER)/extra
#                    (depmod when DESTDIR is empty), ssdctl and ssdsim into
#                    $(DESTDIR)$(PREFIX)/bin
#   make uninstall   removes those files again
#   make kmod        ssdemu.ko for one kernel (KVER, KDIR): what DKMS runs
#   make dkms        the DKMS source tree (build/dkms/src/ssdemu-VERSION),
#                    its `dkms ldtarball` archive, and `dkms build` of it for
#                    every kernel of build/kernel-versions (or DKMS_KVERS) in
#                    a private DKMS tree under build/dkms: no root, nothing
#                    of the system's DKMS touched
#   make dkms-install  dkms add/build/install into the system's DKMS for
#                    KVER (root): rebuilt by DKMS for every new kernel
#
# KVER defaults to the running kernel, KDIR to its build directory.

PREFIX ?= /usr/local
DESTDIR ?=
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
INSTALL_MODDIR = $(DESTDIR)/lib/modules/$(KVER)/extra
INSTALL_BINDIR = $(DESTDIR)$(PREFIX)/bin

DKMS_NAME = ssdemu-$(VERSION)
DKMS_DIR = $(BUILD)/dkms
DKMS_SRC = $(DKMS_DIR)/src/$(DKMS_NAME)
DKMS_TARBALL = $(DKMS_DIR)/$(DKMS_NAME)-source-only.dkms.tar.gz
DKMS_KVERS ?= $(KVERS)
# The module's sources and what builds them: this Makefile's kmod target.
DKMS_FILES = $(KMOD_FILES) dkms.conf Makefile install.mk scripts/build-module.sh \
	scripts/include-views.sh

.PHONY: kmod install uninstall dkms dkms-src dkms-install

kmod:
	@test -d "$(KDIR)" || { echo "kmod: no kernel build directory $(KDIR) (KDIR=, KVER=)" >&2; exit 1; }
	+KDIR="$(KDIR)" ./scripts/build-module.sh "$(KVER)" $(KMOD_FILES)

install: kmod $(BUILD)/bin/ssdctl $(BUILD)/bin/ssdsim
	install -D -m 644 $(BUILD)/kmod/$(KVER)/ssdemu.ko $(INSTALL_MODDIR)/ssdemu.ko
	install -D -m 755 $(BUILD)/bin/ssdctl $(INSTALL_BINDIR)/ssdctl
	install -D -m 755 $(BUILD)/bin/ssdsim $(INSTALL_BINDIR)/ssdsim
	@if [ -z "$(DESTDIR)" ]; then depmod -a "$(KVER)"; \
	else echo "install: DESTDIR set, depmod not run (run depmod -a $(KVER) on the target)"; fi

uninstall:
	rm -f $(INSTALL_MODDIR)/ssdemu.ko $(INSTALL_BINDIR)/ssdctl $(INSTALL_BINDIR)/ssdsim
	-rmdir --ignore-fail-on-non-empty $(INSTALL_MODDIR) 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && [ -d /lib/modules/$(KVER) ]; then depmod -a "$(KVER)"; fi

dkms-src:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	tar -cf - $(sort $(DKMS_FILES)) | tar -xf - -C $(DKMS_SRC)

# `dkms ldtarball` takes a source-only archive: dkms_source_tree/ holding
# the tree with its dkms.conf.
dkms: dkms-src
	rm -rf $(DKMS_DIR)/tarball && mkdir -p $(DKMS_DIR)/tarball
	cp -a $(DKMS_SRC) $(DKMS_DIR)/tarball/dkms_source_tree
	tar -czf $(DKMS_TARBALL) -C $(DKMS_DIR)/tarball dkms_source_tree
	rm -rf $(DKMS_DIR)/tarball
	@echo "dkms: $(DKMS_TARBALL) (dkms ldtarball), source tree $(DKMS_SRC)"
	./scripts/dkms-build.sh $(DKMS_DIR)/private $(DKMS_SRC) $(DKMS_KVERS)

dkms-install: dkms-src
	rm -rf /usr/src/$(DKMS_NAME)
	cp -a $(DKMS_SRC) /usr/src/$(DKMS_NAME)
	dkms add -m ssdemu -v $(VERSION) || true
	dkms build -m ssdemu -v $(VERSION) -k $(KVER)
	dkms install -m ssdemu -v $(VERSION) -k $(KVER)
