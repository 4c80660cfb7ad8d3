# Fuzzing the parsers (docs/fuzzing.md); included by the Makefile.
#
#   make fuzz                   each harness in t/fuzz for FUZZ_SECONDS (60)
#   make fuzz FUZZ=fuzz_sqd     only the harnesses named
#   make fuzz FUZZ_EXTRA=-fork=2    further libFuzzer options
#   make fuzz-merge FUZZ=...    add to t/fuzz/corpus the inputs found that
#                               reach new code, up to FUZZ_CORPUS_MAX (48)
#
# make fuzz builds with clang, libFuzzer, ASan and UBSan into build-fuzz
# and writes only there: new inputs go to build-fuzz/corpus/NAME, crashing
# ones to build-fuzz/crashes/NAME.  make check (make test, make sanitize)
# builds each harness with the ordinary compiler and the replay driver as
# $(BUILD)/fuzz/NAME, and runs it over t/fuzz/corpus/NAME (t/fuzz.bats);
# a plain make does not build them.

FUZZ_ALL = $(patsubst t/fuzz/%.c,%,$(wildcard t/fuzz/fuzz_*.c))
FUZZ ?= $(FUZZ_ALL)
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
override FUZZ_BUILD := $(abspath $(FUZZ_BUILD))
# fuzz_plugin's shared objects, beside it (t/fuzz/stub_*.c): data only,
# and never instrumented, since libFuzzer cannot have a module with
# coverage counters unloaded.
FUZZ_STUBS = stub_plugin.so stub_empty.so
# The harnesses write their files under TMPDIR: tmpfs where there is one,
# since sqd_write and bigdealrc_write fsync each file, ten times slower
# than the parse on a disk.
FUZZ_TMPDIR ?= $(if $(wildcard /dev/shm/.),/dev/shm,$(or $(TMPDIR),/tmp))

# libFuzzer's options for every harness; a harness's own are in
# t/fuzz/NAME.options (inputs long enough to pass the 65536-byte line limit
# where lines matter), its dictionary in t/fuzz/NAME.dict.
FUZZ_OPTIONS = -timeout=10 -rss_limit_mb=2048 -use_value_profile=1 \
	-print_final_stats=1

# The replay binaries, built for the suite (test-progs), not by make all.
FUZZ_REPLAY = $(FUZZ_ALL:%=$(BUILD)/fuzz/%)
FUZZ_OBJ = $(patsubst t/fuzz/%.c,$(BUILD)/obj/fuzz/%.o,$(wildcard t/fuzz/*.c))

test-progs: $(FUZZ_REPLAY)

$(BUILD)/obj/fuzz/%.o: t/fuzz/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -It/fuzz -Icmd $(DEPFLAGS) -c $< -o $@

$(BUILD)/fuzz/fuzz_plugin: $(FUZZ_STUBS:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/stub_%.so: t/fuzz/stub_%.c lib/dl/plugin.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) -Ilib -fPIC -shared $< -o $@

# fuzz_read links the reader plugins in, each one's dl_plugin renamed
# dl_plugin_NAME, and is told their names (the Makefile's READERS) in
# FUZZ_READERS; it is compiled again when they change (DIR/readers.members,
# as the archives' members).  Under ASan each global also has an ODR
# indicator, __odr_asan.NAME, renamed with it, or the sanitizer build links
# a dozen of them under one name.
FUZZ_READERS_DEF = -DFUZZ_READERS='$(foreach r,$(READERS),READER($(r)))'
$(call members,$(BUILD)/obj/fuzz/readers.members,$(READERS))
$(BUILD)/obj/fuzz/readers.members:
	@mkdir -p $(@D)
	@echo "$(READERS)" > $@
$(BUILD)/obj/fuzz/fuzz_read.o: ALL_CFLAGS += $(FUZZ_READERS_DEF)
$(BUILD)/obj/fuzz/fuzz_read.o: $(BUILD)/obj/fuzz/readers.members
FUZZ_READER_OBJ = $(READERS:%=$(BUILD)/obj/fuzz/reader_%.o)
$(BUILD)/obj/fuzz/reader_%.o: plugins/%.c $(DEPSTAMP) $(FLAGSTAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c $< -o $@.tmp
	objcopy --redefine-sym dl_plugin=dl_plugin_$* \
	    --redefine-sym __odr_asan.dl_plugin=__odr_asan.dl_plugin_$* $@.tmp $@
	rm -f $@.tmp
$(BUILD)/fuzz/fuzz_read: $(FUZZ_READER_OBJ)

$(FUZZ_REPLAY): $(BUILD)/fuzz/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/common.o \
    $(BUILD)/obj/fuzz/replay.o $(LIBCMD) $(LIBDL)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $(filter %.o,$^) -o $@ $(LIBCMD) $(LIBDL) $(LIBS)

# The libFuzzer build: its own objects of lib/, instrumented for coverage.
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
	$(FUZZ_SAN) $(WARN) $(PKG_CFLAGS) $(LIB_INCLUDES) -It/fuzz -Icmd \
	-DDL_VERSION='"$(VERSION)"'
FUZZ_LIB_OBJ = $(LIB_SRC:lib/%.c=$(FUZZ_BUILD)/obj/lib/%.o)
FUZZ_CMD_OBJ = $(CMD_SRC:cmd/%.c=$(FUZZ_BUILD)/obj/cmd/%.o)
FUZZ_LIBCMD = $(if $(CMD_SRC),$(FUZZ_BUILD)/lib/libcmd.a)
FUZZ_BIN = $(FUZZ_ALL:%=$(FUZZ_BUILD)/bin/%)
FUZZ_BIN_OBJ = $(patsubst t/fuzz/%.c,$(FUZZ_BUILD)/obj/fuzz/%.o,\
	$(filter-out t/fuzz/replay.c,$(wildcard t/fuzz/*.c)))

$(FUZZ_BUILD)/obj/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@

$(FUZZ_BUILD)/obj/cmd/%.o: cmd/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@

$(FUZZ_BUILD)/obj/fuzz/%.o: t/fuzz/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@

$(FUZZ_BUILD)/bin/fuzz_plugin: $(FUZZ_STUBS:%=$(FUZZ_BUILD)/bin/%)

$(FUZZ_BUILD)/bin/stub_%.so: t/fuzz/stub_%.c lib/dl/plugin.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 $(WARN) -Ilib -fPIC -shared $< -o $@

# remade when their members change, like $(BUILD)'s (the Makefile)
$(call members,$(FUZZ_BUILD)/lib/libdl.members,$(LIB_SRC))
$(call members,$(FUZZ_BUILD)/lib/libcmd.members,$(CMD_SRC))

$(FUZZ_BUILD)/lib/libdl.members:
	@mkdir -p $(@D)
	@echo "$(LIB_SRC)" > $@

$(FUZZ_BUILD)/lib/libcmd.members:
	@mkdir -p $(@D)
	@echo "$(CMD_SRC)" > $@

$(FUZZ_BUILD)/lib/libdl.a: $(FUZZ_LIB_OBJ) $(FUZZ_BUILD)/lib/libdl.members
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_LIB_OBJ)

$(FUZZ_BUILD)/lib/libcmd.a: $(FUZZ_CMD_OBJ) $(FUZZ_BUILD)/lib/libcmd.members
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_CMD_OBJ)

$(call members,$(FUZZ_BUILD)/obj/fuzz/readers.members,$(READERS))
$(FUZZ_BUILD)/obj/fuzz/readers.members:
	@mkdir -p $(@D)
	@echo "$(READERS)" > $@
$(FUZZ_BUILD)/obj/fuzz/fuzz_read.o: FUZZ_CFLAGS += $(FUZZ_READERS_DEF)
$(FUZZ_BUILD)/obj/fuzz/fuzz_read.o: $(FUZZ_BUILD)/obj/fuzz/readers.members
FUZZ_BUILD_READER_OBJ = $(READERS:%=$(FUZZ_BUILD)/obj/fuzz/reader_%.o)
$(FUZZ_BUILD)/obj/fuzz/reader_%.o: plugins/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -MF $(@:.o=.d) -MT $@ -c $< -o $@.tmp
	objcopy --redefine-sym dl_plugin=dl_plugin_$* \
	    --redefine-sym __odr_asan.dl_plugin=__odr_asan.dl_plugin_$* $@.tmp $@
	rm -f $@.tmp
$(FUZZ_BUILD)/bin/fuzz_read: $(FUZZ_BUILD_READER_OBJ)

$(FUZZ_BIN): $(FUZZ_BUILD)/bin/%: $(FUZZ_BUILD)/obj/fuzz/%.o $(FUZZ_BUILD)/obj/fuzz/common.o \
    $(FUZZ_LIBCMD) $(FUZZ_BUILD)/lib/libdl.a
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(filter %.o,$^) -o $@ \
	    $(FUZZ_LIBCMD) $(FUZZ_BUILD)/lib/libdl.a $(LIBS)

-include $(FUZZ_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_CMD_OBJ:.o=.d) \
	$(FUZZ_BIN_OBJ:.o=.d) $(FUZZ_READER_OBJ:.o=.d) $(FUZZ_BUILD_READER_OBJ:.o=.d)

fuzz-build: deps
	@command -v $(FUZZ_CC) > /dev/null || { echo "make fuzz needs $(FUZZ_CC)" \
	    "with libFuzzer: apt-get install clang" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(FUZZ:%=$(FUZZ_BUILD)/bin/%)

# Each harness runs over its working corpus (new inputs land there) and
# t/fuzz/corpus (read only); a summary of runs and findings closes.
fuzz: fuzz-build
	@status=0; rm -f $(FUZZ_BUILD)/summary; \
	for f in $(FUZZ); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$f $(FUZZ_BUILD)/crashes/$$f $(FUZZ_BUILD)/logs; \
	    own=$$(cat t/fuzz/$$f.options 2>/dev/null); \
	    [ -f t/fuzz/$$f.dict ] && own="$$own -dict=t/fuzz/$$f.dict"; \
	    echo "fuzz: $$f for $(FUZZ_SECONDS) s (log in $(FUZZ_BUILD)/logs/$$f.log)"; \
	    if TMPDIR=$(FUZZ_TMPDIR) $(FUZZ_BUILD)/bin/$$f $(FUZZ_OPTIONS) $$own $(FUZZ_EXTRA) \
	        -max_total_time=$(FUZZ_SECONDS) \
	        -artifact_prefix=$(FUZZ_BUILD)/crashes/$$f/ \
	        $(FUZZ_BUILD)/corpus/$$f t/fuzz/corpus/$$f \
	        > $(FUZZ_BUILD)/logs/$$f.log 2>&1; then r=ok; \
	    else r=FAILED; status=1; fi; \
	    runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/logs/$$f.log); \
	    secs=$$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' $(FUZZ_BUILD)/logs/$$f.log); \
	    printf '%-22s %-6s %10s runs %5s s\n' $$f $$r "$${runs:-?}" "$${secs:-?}" \
	        | tee -a $(FUZZ_BUILD)/summary; \
	done; \
	[ $$status = 0 ] || echo "fuzz: see $(FUZZ_BUILD)/logs and $(FUZZ_BUILD)/crashes"; \
	exit $$status

# Adds to t/fuzz/corpus the found inputs that reach code edges it does not
# reach yet, the most new edges first, up to FUZZ_CORPUS_MAX files a harness
# (t/fuzz/select-corpus.py, on libFuzzer's -merge=1): the merge alone would
# keep every input with a new edge, often fifty or more.
FUZZ_CORPUS_MAX ?= 48
fuzz-merge: fuzz-build
	@for f in $(FUZZ); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$f; \
	    TMPDIR=$(FUZZ_TMPDIR) python3 t/fuzz/select-corpus.py $(FUZZ_BUILD)/bin/$$f t/fuzz/corpus/$$f \
	        $(FUZZ_BUILD)/corpus/$$f $(FUZZ_CORPUS_MAX) \
	        $$(cat t/fuzz/$$f.options 2>/dev/null) || exit 1; \
	done

.PHONY: fuzz fuzz-build fuzz-merge
