# dl: tournament bridge dealing as Unix filters.
#   make            build the tools and plugins into build/bin and build/plugins
#   make run        install missing dependencies, build, deal one session
#   make serve      install lighttpd too, build, serve dl-web (the web page) on
#                   http://127.0.0.1:${DL_WEB_PORT:-8080}/ (share/web/lighttpd.conf)
#   make check      install missing dependencies, build with -Werror, run the
#                   test suite (test helpers and fuzz replay binaries too)
#   make check-quick  the same without the browser, PostgreSQL, web server
#                   and slow tests, installing none of what they need
#   make test       build what the suite needs and run it (no dependencies,
#                   no -Werror unless WERROR=1); make test-quick likewise
#   make sanitize   the suite under ASan+UBSan (build in build-san)
#   make bench      throughput and memory figures (docs/performance.md)
#   make bench-archive  the archive's figures alone (a part of make bench)
#   make bench-web  dl-web's behind lighttpd, with ab (a part of make bench)
#   make stat-long  dl-stat on 10 million boards a generator (docs/statistics.md)
#   make archive-long  10 million fresh deals checked against 10 million
#                   archived: no match but chance's (docs/performance.md)
#   make install    PREFIX=/usr/local DESTDIR=
#   make uninstall  the same PREFIX and DESTDIR: removes what install put there
#   make deb        Debian packages dl, dl-dev, dl-web in build/deb, checked
#                   by lintian (debian/; docs/building.md)
# See docs/building.md.

VERSION = 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
# One name for the build directory however it is spelt (the suite runs
# make with it absolute): a .d file names its object as make was told it,
# and make applies its rule to that name only.
override BUILD := $(abspath $(BUILD))
CC ?= cc
AR ?= ar
PKG_CONFIG ?= pkg-config
OPT ?= -O2 -g
# WERROR=1 turns warnings into errors: make check and make sanitize set it
# (make check WERROR=0 does not), a plain make or make install does not, so
# that a newer compiler's new warning cannot break a user's build.
WERROR ?=

PKGS = libsodium libbsd-overlay
# the archive's databases' headers too (libpq's are in a folder of their
# own); their libraries are linked only by the tools that keep sets
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) sqlite3 libpq icu-i18n 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	$(if $(filter 1,$(WERROR)),-Werror)
# -MMD -MP: each object's header dependencies in a .d file next to it
DEPFLAGS = -MMD -MP
# lib/ is grouped by the pipeline's stages (docs/hacking.md, "Layers"); its
# headers are included by name from every group, <dl/plugin.h> from lib/.
LIB_INCLUDES = -Ilib
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(OPT) $(WARN) $(PKG_CFLAGS) $(LIB_INCLUDES) \
	-DDL_VERSION='"$(VERSION)"' $(CFLAGS)
ALL_LDFLAGS = $(OPT) $(CFLAGS) $(LDFLAGS)

# The sources: cmd/dl-NAME.c is tool dl-NAME; every other cmd/*.c is code
# the tools share (libcmd.a); lib/GROUP/*.c is libdl.a; plugins/NAME.c is plugin
# NAME.so (and the link dl-fmt-NAME); t/helpers/NAME.c a test helper.
# cmd/web/*.c are dl-web's parts, a file a page (cmd/web/page.h).
TOOLS = $(patsubst cmd/%.c,%,$(wildcard cmd/dl-*.c))
CMD_SRC = $(filter-out cmd/dl-%.c,$(wildcard cmd/*.c))
WEB_SRC = $(wildcard cmd/web/*.c)
PLUGINS = $(patsubst plugins/%.c,%,$(wildcard plugins/*.c))
LIB_SRC = $(wildcard lib/*/*.c)
TEST_HELPERS = $(patsubst t/helpers/%.c,%,$(wildcard t/helpers/*.c))

LIB_OBJ = $(LIB_SRC:lib/%.c=$(BUILD)/obj/lib/%.o)
CMD_OBJ = $(CMD_SRC:cmd/%.c=$(BUILD)/obj/cmd/%.o)
WEB_OBJ = $(WEB_SRC:cmd/%.c=$(BUILD)/obj/cmd/%.o)
TOOL_OBJ = $(TOOLS:%=$(BUILD)/obj/cmd/%.o)
PLUGIN_OBJ = $(PLUGINS:%=$(BUILD)/obj/plugins/%.o)
HELPER_OBJ = $(TEST_HELPERS:%=$(BUILD)/obj/t/%.o)

LIBDL = $(BUILD)/lib/libdl.a
# libcmd.a only once there is shared tool code (an archive of nothing is
# not portable)
LIBCMD = $(if $(CMD_SRC),$(BUILD)/lib/libcmd.a)
LIBS = $(PKG_LIBS) -ldl -lm -pthread

TOOL_BIN = $(TOOLS:%=$(BUILD)/bin/%)
LINKS = $(PLUGINS:%=$(BUILD)/bin/dl-fmt-%)
# The plugins that read their format too: dl-read-NAME for each.  A plugin
# reads when its struct dl_plugin sets .read_board (t/read.bats checks that
# these are the formats dl-read --list shows).
READERS := $(patsubst plugins/%.c,%,$(sort $(shell grep -l \
	'^[[:space:]]*\.read_board[[:space:]]*=' $(wildcard plugins/*.c) /dev/null)))
READ_LINKS = $(READERS:%=$(BUILD)/bin/dl-read-%)
SO = $(PLUGINS:%=$(BUILD)/plugins/%.so)
# The plugins' index (docs/plugins.md, "The index"): each plugin's suffix
# and whether it reads, asked of the plugins themselves by dl-read
# --index, so that telling a file's format loads the readers it needs and
# never a writer (pdf.so brings some forty libraries).  Installed beside
# them.
PLUGIN_INDEX = $(BUILD)/plugins/plugins.index
HELPERS = $(TEST_HELPERS:%=$(BUILD)/t/%)

all: $(TOOL_BIN) $(LINKS) $(READ_LINKS) $(SO) $(PLUGIN_INDEX)

# What a plugin removed or renamed left in the build directory goes as
# make reads this file: the tools load every plugin next to them, so a
# stale one would still be loaded.
STALE_PLUGINS := $(filter-out $(SO) $(LINKS) $(READ_LINKS),$(wildcard \
	$(BUILD)/plugins/*.so $(BUILD)/bin/dl-fmt-* $(BUILD)/bin/dl-read-*))
ifneq ($(STALE_PLUGINS),)
$(info rm -f $(STALE_PLUGINS))
$(shell rm -f $(STALE_PLUGINS))
endif

# What the suite runs besides the tools and plugins: the test helpers,
# (share/dev/fuzz.mk) the fuzz replay binaries, and axe-core, the
# accessibility checker t/handrecord.bats runs in Chromium, fetched from
# the npm registry at the version and hash share/dev/npm/package-lock.json
# pins (it is a test tool, never part of dl).
AXE_CORE = $(BUILD)/npm/node_modules/axe-core/axe.min.js
test-progs: $(HELPERS) $(AXE_CORE)

$(AXE_CORE): share/dev/npm/package.json share/dev/npm/package-lock.json
	@mkdir -p $(BUILD)/npm
	@cp share/dev/npm/package.json share/dev/npm/package-lock.json $(BUILD)/npm/
	@cd $(BUILD)/npm && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error > /dev/null || \
	    { echo "make: could not fetch axe-core from the npm registry; run: cd $(BUILD)/npm && npm ci --ignore-scripts" >&2; exit 1; }
	@touch $@

# Compiling: one rule a source directory, each writing its .d file.
# A build directory made before its name was absolute holds .d files that
# name their objects as make was then told, rules make never applies: one
# without this stamp is compiled again, once.
DEPSTAMP = $(BUILD)/obj/.absolute-names
$(DEPSTAMP):
	@mkdir -p $(@D)
	@touch $@

# The flags are a prerequisite of what they build: obj/.flags holds them
# and is rewritten, as make reads this file, only when they differ, so that
# make CFLAGS=... or OPT=... compiles and links again.  -Werror is left
# out: it changes no output, and make and make check share a build.
FLAGSTAMP = $(BUILD)/obj/.flags
FLAGS_NOW = $(subst ','\'',$(CC) $(filter-out -Werror,$(ALL_CFLAGS)) | $(ALL_LDFLAGS))
$(shell mkdir -p $(BUILD)/obj && printf '%s\n' '$(FLAGS_NOW)' > $(FLAGSTAMP).new && \
    { cmp -s $(FLAGSTAMP).new $(FLAGSTAMP) && rm -f $(FLAGSTAMP).new || mv $(FLAGSTAMP).new $(FLAGSTAMP); })
$(FLAGSTAMP):

$(BUILD)/obj/lib/%.o: lib/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/cmd/%.o: cmd/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) -Icmd $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/plugins/%.o: plugins/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/t/%.o: t/helpers/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

# An archive is remade when its list of members changes too (a source
# removed, or moved between lib/ and cmd/), not only when a member does:
# DIR/NAME.members holds the list of sources (the same whatever BUILD
# is spelt), rewritten as make reads this file when it differs.
# $(call members,FILE,SOURCES)
members = $(shell [ ! -f $(1) ] || [ "$$(cat $(1))" = "$(2)" ] || echo "$(2)" > $(1))
$(call members,$(BUILD)/lib/libdl.members,$(LIB_SRC))
$(call members,$(BUILD)/lib/libcmd.members,$(CMD_SRC))

$(BUILD)/lib/libdl.members:
	@mkdir -p $(@D)
	@echo "$(LIB_SRC)" > $@

$(BUILD)/lib/libcmd.members:
	@mkdir -p $(@D)
	@echo "$(CMD_SRC)" > $@

$(LIBDL): $(LIB_OBJ) $(BUILD)/lib/libdl.members
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(BUILD)/lib/libcmd.a: $(CMD_OBJ) $(BUILD)/lib/libcmd.members
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(CMD_OBJ)

# Linking: the tools' shared code before libdl.a, which it uses.
$(TOOL_BIN): $(BUILD)/bin/%: $(BUILD)/obj/cmd/%.o $(LIBCMD) $(LIBDL) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $(strip $< $(PARTS)) -o $@ $(LIBCMD) $(LIBDL) $(LIBS)

# dl-web's pages and helpers, linked into it alone
$(BUILD)/bin/dl-web: $(WEB_OBJ)
$(BUILD)/bin/dl-web: PARTS = $(WEB_OBJ)

# dl-dd and dl-deal (its analysis) have libdds solve their boards (Debian:
# libdds-dev), through lib/deals/solve.c; dl-web runs dl-dd for it
# (cmd/analyse_child.c), so as not to start DDS for every request.
$(BUILD)/bin/dl-dd $(BUILD)/bin/dl-deal $(BUILD)/t/ddsbatch: LIBS += -ldds

# The archive (lib/archive/) keeps its sets in SQLite or PostgreSQL
# (Debian: libsqlite3-dev, libpq-dev): the tools that record or check sets.
# libpq is loaded by lib/archive/archive_postgres.c when a PostgreSQL
# archive is opened (dlopen), not linked: only its headers are needed here,
# and so with ICU (Debian: libicu-dev), which makes the key an event's sets
# are counted by (lib/archive/event_key.c), loaded when a key is made.
ARCHIVE_LIBS := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null)
$(BUILD)/bin/dl-archive $(BUILD)/bin/dl-deal $(BUILD)/bin/dl-sqd $(BUILD)/bin/dl-bigdeal \
	$(BUILD)/bin/dl-bigdealx $(BUILD)/bin/dl-web $(BUILD)/t/archivebench \
	$(BUILD)/t/schemadigest: LIBS += $(ARCHIVE_LIBS)
# dl-web zips a set with libarchive (Debian: libarchive-dev)
$(BUILD)/bin/dl-web: LIBS += $(shell $(PKG_CONFIG) --libs libarchive 2>/dev/null)

# The pdf and tablecards plugins draw with cairo and pango (Debian: libpango1.0-dev,
# libcairo2-dev); their headers as system headers, so that their own
# warnings are not ours.
PANGO_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags pangocairo 2>/dev/null))
PANGO_LIBS := $(shell $(PKG_CONFIG) --libs pangocairo 2>/dev/null)
$(BUILD)/obj/plugins/pdf.o $(BUILD)/obj/plugins/tablecards.o: ALL_CFLAGS += $(PANGO_CFLAGS)
# Once loaded it stays (-z nodelete): glib, which pango brings, cannot be
# unloaded, and what its constructors allocated would be lost (LeakSanitizer
# sees that in every tool that looks through the plugins).
$(BUILD)/plugins/pdf.so $(BUILD)/plugins/tablecards.so: PLUGIN_LIBS = $(PANGO_LIBS) -Wl,-z,nodelete
# The hand records and the table cards print the QR code of the address
# where the hand record is published after play (#U:), encoded by
# libqrencode (Debian: libqrencode-dev), which they link (plugins/qr.h).
QR_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags libqrencode 2>/dev/null))
QR_LIBS := $(shell $(PKG_CONFIG) --libs libqrencode 2>/dev/null)
$(BUILD)/obj/plugins/pdf.o $(BUILD)/obj/plugins/html.o $(BUILD)/obj/plugins/tablecards.o: \
	ALL_CFLAGS += $(QR_CFLAGS)
$(BUILD)/plugins/pdf.so $(BUILD)/plugins/tablecards.so: PLUGIN_LIBS += $(QR_LIBS)
$(BUILD)/plugins/html.so: PLUGIN_LIBS = $(QR_LIBS)

# dl-fmt-NAME is dl-fmt choosing the plugin from its own name.
$(LINKS): $(BUILD)/bin/dl-fmt-%: $(BUILD)/bin/dl-fmt
	ln -sf dl-fmt $@

# dl-read-NAME likewise.
$(READ_LINKS): $(BUILD)/bin/dl-read-%: $(BUILD)/bin/dl-read
	ln -sf dl-read $@

$(SO): $(BUILD)/plugins/%.so: $(BUILD)/obj/plugins/%.o $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared $< -o $@ $(PLUGIN_LIBS)

# made again whenever a plugin is (a plugin newer than the index is one it
# does not describe, loaded to be asked)
$(PLUGIN_INDEX): $(SO) $(BUILD)/bin/dl-read
	$(BUILD)/bin/dl-read --index $(BUILD)/plugins

$(HELPERS): $(BUILD)/t/%: $(BUILD)/obj/t/%.o $(LIBDL) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $< -o $@ $(LIBDL) $(LIBS)

# t/helpers/bigdeal_os.c runs the drop-ins' code (cmd/bigdeal_cli.c) with
# the OS's randomness given: it links the tools' shared code too.
$(BUILD)/obj/t/bigdeal_os.o: ALL_CFLAGS += -Icmd
$(BUILD)/t/bigdeal_os: $(LIBCMD)
$(BUILD)/t/bigdeal_os: LIBS := $(LIBCMD) $(LIBDL) $(LIBS) $(ARCHIVE_LIBS)

OBJ = $(LIB_OBJ) $(CMD_OBJ) $(WEB_OBJ) $(TOOL_OBJ) $(PLUGIN_OBJ) $(HELPER_OBJ)
-include $(OBJ:.o=.d)

deps:
	@sh share/dev/ensure-deps.sh

test-deps:
	@sh share/dev/ensure-deps.sh --test

run: deps
	@$(MAKE) -s --no-print-directory all
	@$(BUILD)/bin/dl-deal

# dl-web through lighttpd in the foreground, on the loopback only; the
# archive is DL_ARCHIVE or the user's (share/web/serve.sh).
serve: deps
	@sh share/dev/ensure-deps.sh --serve
	@$(MAKE) -s --no-print-directory all
	@sh share/web/serve.sh $(BUILD)/bin/dl-web

check: test-deps
	@$(MAKE) --no-print-directory WERROR=$(or $(WERROR),1) test

# The developer's loop: the suite without the tests tagged (bats'
# "# bats file_tags=" and "test_tags=") browser (Chromium), postgres (a
# PostgreSQL server), web-server (lighttpd or nginx) or slow (long runs:
# whole sessions analysed, big matrices, the build of the tree); it
# installs none of what those need (ensure-deps.sh --quick), nor axe-core.
QUICK_TAGS = !browser,!postgres,!web-server,!slow
check-quick: quick-deps
	@$(MAKE) --no-print-directory WERROR=$(or $(WERROR),1) test-quick

quick-deps:
	@sh share/dev/ensure-deps.sh --quick

# The suite runs BATS_JOBS files at a time (bats --jobs, through GNU
# parallel), a file's tests one after another (setup_file's servers and
# folders are the file's); then the files tagged web-server, one at a
# time: each runs dl-web behind a server of its own, and waits until no
# process runs the build's dl-web (t/web.bash, web_idle), which another
# such file's server would hold up.  bats' TAP output, then the plain
# closing line CI reads.
TESTS = t
BATS_JOBS = 2
BATS = DL_BUILD="$(BUILD)" bats
# (BATS_JOBS=1: one file after another, as bats runs them alone)
BATS_PARALLEL = $(BATS) $(if $(filter-out 1,$(BATS_JOBS)),--jobs $(BATS_JOBS) --no-parallelize-within-files)
TESTS_TAP = $(BUILD)/tests.tap
TESTS_END = echo "$$(grep -c '^ok' $(TESTS_TAP)) passed, $$(grep -c '^not ok' $(TESTS_TAP)) failed"; \
	exit $$(cat $(BUILD)/tests.status)
test: all test-progs
	@mkdir -p $(BUILD)
	@{ s=0; $(BATS_PARALLEL) --filter-tags '!web-server' $(TESTS) || s=$$?; \
	    $(BATS) --filter-tags web-server $(TESTS) || s=$$?; \
	    echo $$s > $(BUILD)/tests.status; } | tee $(TESTS_TAP)
	@$(TESTS_END)

# what check-quick runs: the tools, the test helpers and the fuzz replay
# binaries (share/dev/fuzz.mk), not axe-core
test-quick: all $(HELPERS)
	@$(MAKE) --no-print-directory $(FUZZ_REPLAY)
	@mkdir -p $(BUILD)
	@{ $(BATS_PARALLEL) --filter-tags '$(QUICK_TAGS)' $(TESTS); echo $$? > $(BUILD)/tests.status; } | \
	    tee $(TESTS_TAP)
	@$(TESTS_END)

# LeakSanitizer is told of the caches fontconfig never frees (share/dev/lsan.supp).
# Not t/deb.bats: the packages it builds are dpkg's build, not this one.
sanitize: test-deps
	@LSAN_OPTIONS=suppressions=$(CURDIR)/share/dev/lsan.supp:print_suppressions=0 \
	    $(MAKE) --no-print-directory BUILD=build-san WERROR=$(or $(WERROR),1) \
	    OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    LDFLAGS="-fsanitize=address,undefined" \
	    TESTS="$(filter-out t/deb.bats,$(wildcard t/*.bats))" all test
	@$(MAKE) --no-print-directory sanitize-threads

# ThreadSanitizer over the suites that run threads: the ring (lib/base/ring.c)
# and what runs on it (the writers' pool, dl-stream -j, dl-deal), dl-cat's
# readers, dl-dd (share/dev/tsan.supp says what of DDS's OpenMP and
# fontconfig it cannot see).
THREADED_TESTS = t/ring.bats t/writer-threads.bats t/shard.bats t/deal.bats t/dd.bats \
	t/pipeline.bats t/distributed.bats
sanitize-threads: test-deps
	@TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/share/dev/tsan.supp" \
	    $(MAKE) --no-print-directory BUILD=build-tsan WERROR=$(or $(WERROR),1) \
	    OPT="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" \
	    LDFLAGS="-fsanitize=thread" TESTS="$(THREADED_TESTS)" all test

bench: deps
	@sh share/dev/ensure-deps.sh --bench
	@$(MAKE) --no-print-directory all $(BUILD)/t/dl256time $(BUILD)/t/ddsbatch \
	    $(BUILD)/t/fmtbench $(BUILD)/t/rmdlanes $(BUILD)/t/archivebench
	@sh share/dev/bench.sh "$(BUILD)"
	@sh share/dev/bench-archive.sh "$(BUILD)"
	@sh share/dev/bench-web.sh "$(BUILD)"

# dl-web's figures alone: lighttpd on a loopback port, loaded with ab.
bench-web: deps
	@sh share/dev/ensure-deps.sh --bench
	@$(MAKE) --no-print-directory all
	@sh share/dev/bench-web.sh "$(BUILD)"

# The archive's figures alone (they take some minutes: 10^7 deals into
# SQLite and into PostgreSQL).
bench-archive: deps
	@$(MAKE) --no-print-directory all $(BUILD)/t/archivebench
	@sh share/dev/bench-archive.sh "$(BUILD)"

stat-long: deps
	@$(MAKE) --no-print-directory all
	@sh share/dev/stat-long.sh "$(BUILD)"

bench-archive-large: deps
	@$(MAKE) --no-print-directory all $(BUILD)/t/archivebench
	@sh share/dev/bench-archive-large.sh "$(BUILD)"

archive-long: deps
	@$(MAKE) --no-print-directory all
	@sh share/dev/archive-long.sh "$(BUILD)"

BINDIR = $(DESTDIR)$(PREFIX)/bin
DLLIBDIR = $(DESTDIR)$(PREFIX)/lib/dl
PLUGINDIR = $(DLLIBDIR)/plugins
MANDIR = $(DESTDIR)$(PREFIX)/share/man
INCDIR = $(DESTDIR)$(PREFIX)/include/dl
PCDIR = $(DESTDIR)$(PREFIX)/lib/pkgconfig
DLSHAREDIR = $(DESTDIR)$(PREFIX)/share/dl
EXAMPLEDIR = $(DLSHAREDIR)/examples
MANPAGES = $(wildcard man/*.[1-9])
EXAMPLES = $(wildcard share/examples/*.c)
EXAMPLE_SCRIPTS = $(wildcard share/examples/*.sh)
# make serve's configurations and script, to try dl-web from an
# installation: sh PREFIX/share/dl/web/serve.sh PREFIX/bin/dl-web
WEBSHAREDIR = $(DLSHAREDIR)/web
WEB_FILES = share/web/lighttpd.conf share/web/nginx.conf
WEB_SCRIPTS = share/web/serve.sh

install: all
	mkdir -p $(BINDIR) $(PLUGINDIR) $(INCDIR) $(PCDIR) $(EXAMPLEDIR) \
	    $(MANDIR)/man1 $(MANDIR)/man3 $(MANDIR)/man5 $(MANDIR)/man7
	for t in $(TOOLS); do install -m 755 $(BUILD)/bin/$$t $(BINDIR)/$$t; done
	for p in $(PLUGINS); do \
	    install -m 644 $(BUILD)/plugins/$$p.so $(PLUGINDIR)/$$p.so; \
	    ln -sf dl-fmt $(BINDIR)/dl-fmt-$$p; done
	for p in $(READERS); do ln -sf dl-read $(BINDIR)/dl-read-$$p; done
	install -m 644 $(PLUGIN_INDEX) $(PLUGINDIR)/plugins.index
	install -m 644 lib/dl/plugin.h $(INCDIR)/plugin.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	    share/dl-plugin.pc.in > $(PCDIR)/dl-plugin.pc
	install -m 644 $(EXAMPLES) $(EXAMPLEDIR)/
	install -m 755 $(EXAMPLE_SCRIPTS) $(EXAMPLEDIR)/
	for m in $(MANPAGES); do \
	    s=$${m##*.}; install -m 644 $$m $(MANDIR)/man$$s/; done
	for p in $(PLUGINS); do ln -sf dl-fmt.1 $(MANDIR)/man1/dl-fmt-$$p.1; done
	for p in $(READERS); do ln -sf dl-read.1 $(MANDIR)/man1/dl-read-$$p.1; done
	mkdir -p $(WEBSHAREDIR)
	install -m 644 $(WEB_FILES) $(WEBSHAREDIR)/
	install -m 755 $(WEB_SCRIPTS) $(WEBSHAREDIR)/
	@pc=$$($(PKG_CONFIG) --variable pc_path pkg-config 2>/dev/null); \
	case ":$$pc:" in *:$(PREFIX)/lib/pkgconfig:*) ;; *) \
	    echo "make install: pkg-config does not look in $(PREFIX)/lib/pkgconfig:" \
	        "PKG_CONFIG_PATH=$(PREFIX)/lib/pkgconfig pkg-config --cflags dl-plugin";; esac

# Removes what install installed, then the directories of dl's own that are
# left empty; never bin/, man/manN/ or lib/pkgconfig/, which others share.
uninstall:
	for t in $(TOOLS); do rm -f $(BINDIR)/$$t; done
	for p in $(PLUGINS); do \
	    rm -f $(PLUGINDIR)/$$p.so $(BINDIR)/dl-fmt-$$p; done
	for p in $(READERS); do rm -f $(BINDIR)/dl-read-$$p; done
	rm -f $(PLUGINDIR)/plugins.index
	rm -f $(INCDIR)/plugin.h $(PCDIR)/dl-plugin.pc
	rm -f $(EXAMPLES:share/examples/%=$(EXAMPLEDIR)/%)
	rm -f $(EXAMPLE_SCRIPTS:share/examples/%=$(EXAMPLEDIR)/%)
	for m in $(MANPAGES); do \
	    s=$${m##*.}; rm -f $(MANDIR)/man$$s/$${m#man/}; done
	for p in $(PLUGINS); do rm -f $(MANDIR)/man1/dl-fmt-$$p.1; done
	for p in $(READERS); do rm -f $(MANDIR)/man1/dl-read-$$p.1; done
	rm -f $(WEB_FILES:share/web/%=$(WEBSHAREDIR)/%) $(WEB_SCRIPTS:share/web/%=$(WEBSHAREDIR)/%)
	for d in $(PLUGINDIR) $(DLLIBDIR) $(INCDIR) $(EXAMPLEDIR) $(WEBSHAREDIR) $(DLSHAREDIR); do \
	    if [ -d $$d ]; then rmdir $$d 2>/dev/null || :; fi; done

# Debian packages (debian/: dl, dl-dev, dl-web), built by
# dpkg-buildpackage in a copy of the tree under $(BUILD)/deb, where the
# .deb files are left, then checked by lintian (a warning fails it).
DEB_DIR = $(BUILD)/deb
DEB_SRC = Makefile README.md cmd lib plugins man share debian
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null)
deb:
	@sh share/dev/ensure-deps.sh --deb
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version); [ "$$v" = "$(VERSION)" ] || \
	    { echo "make deb: debian/changelog says $$v, the Makefile's VERSION $(VERSION)" >&2; exit 1; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/dl-$(VERSION)
	cp -R $(DEB_SRC) $(DEB_DIR)/dl-$(VERSION)/
	cd $(DEB_DIR)/dl-$(VERSION) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	    dpkg-buildpackage -b -us -uc -jauto > ../build.log 2>&1 || \
	    { tail -n 40 ../build.log >&2; echo "make deb: dpkg-buildpackage failed: $(DEB_DIR)/build.log" >&2; exit 1; }
	lintian --fail-on error,warning $(DEB_DIR)/dl_$(VERSION)_$(DEB_ARCH).changes
	@ls $(DEB_DIR)/*.deb

clean:
	rm -rf $(BUILD) build-san

# make fuzz, and the replay of t/fuzz's corpus in make check
-include share/dev/fuzz.mk
# make memcheck: valgrind on the main pipelines
-include share/dev/memcheck.mk

.PHONY: all test-progs deps test-deps quick-deps run serve check check-quick test test-quick \
	sanitize sanitize-threads bench stat-long \
	archive-long bench-archive bench-archive-large bench-web \
	install uninstall deb clean
