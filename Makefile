# Front door: every target does its own set-up on a fresh Debian 12 machine.
BUILD ?= build
# Paths below the clone are hashed relative to it, so a fresh clone on this machine finds the compiles of the
# last one in ccache (with meson.build's -fdebug-prefix-map; the Verilator model builds use ccache too).
export CCACHE_BASEDIR ?= $(CURDIR)
MESON_SETUP_ARGS ?=

.PHONY: all deps build test test-slow test-asan run bench calibrate qor clean

all: build

deps:
	@./tools/deps.sh

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD) $(MESON_SETUP_ARGS)

build: deps $(BUILD)/build.ninja
	@ninja -C $(BUILD)

test: build
	@./tools/run_tests.sh $(BUILD)

test-slow: build
	@./tools/run_tests.sh $(BUILD) --slow

# The fast suites again, built with AddressSanitizer and UndefinedBehaviorSanitizer in a build of their own;
# any report stops the suite (docs/testing.md).
ASAN_BUILD ?= build-asan
# Not hls: its randomised and exhaustive pass checks take 96 s in the release build and over 40 minutes
# under the sanitizers (measured 2026-12-03), more than CI allows; the passes still run under them
# inside the rtl, corpus and cli suites.
ASAN_SUITES = ir frontend corpus rtl boards native cli workload hwtop
ASAN_TARGETS = cli/polydat tests/ir/ir_tests tests/frontend/frontend_tests tests/corpus/corpus_tests \
  tests/rtl/rtl_tests tests/boards/boards_tests tests/llvm/native_tests tests/cli/cli_tests tests/workload/workload_tests tests/hwtop/hwtop_tests
$(ASAN_BUILD)/build.ninja: | deps
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Doptimization=1 $(MESON_SETUP_ARGS) \
	  -Dcpp_args=-Wno-maybe-uninitialized  # g++ 12 misreads libstdc++ regex under the sanitizers

# ASan's frames are about seven times the release build's (a level of parentheses costs the parser
# 4.7 KB of stack against 0.7 KB, -fstack-usage): the 1,000 levels the language allows need more than 8 MB.
test-asan: deps $(ASAN_BUILD)/build.ninja
	@ninja -C $(ASAN_BUILD) $(ASAN_TARGETS)
	@ulimit -s 65536 && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ./tools/run_tests.sh $(ASAN_BUILD) --only "$(ASAN_SUITES)"

# Builds only the polydat binary it runs, not the test suites.
run: deps $(BUILD)/build.ninja
	@ninja -C $(BUILD) cli/polydat
	@./tools/run_example.sh $(BUILD)

# The bench, calibration and QoR executables are not built by `make build` (make test does not need them).
bench: build
	@ninja -C $(BUILD) tests/bench/polydat-bench tests/systemc/polydat-systemc-bench
	@$(BUILD)/tests/bench/polydat-bench
	@$(BUILD)/tests/systemc/polydat-systemc-bench

# Measures the iCE40 operator delays behind hls/op_library.cc with the real tools (about 10 minutes).
calibrate: build
	@ninja -C $(BUILD) tests/calibration/polydat-calibrate-ice40
	@$(BUILD)/tests/calibration/polydat-calibrate-ice40 docs/ice40-calibration.csv

# Regenerates the tables of docs/fpga-qor.md with the real tools: every corpus kernel on every board, and the
# issue's anchor kernels beside an expert's figures (about an hour on two cores; QOR_ARGS=--timeout 120 ...).
QOR_ARGS ?=
qor: build
	@ninja -C $(BUILD) tests/qor/polydat-qor
	@$(BUILD)/tests/qor/polydat-qor --out $(BUILD)/qor --write docs/fpga-qor.md $(QOR_ARGS)

clean:
	rm -rf $(BUILD)
