# Front door: every target does its own set-up on a fresh Debian 12 machine.
BUILD ?= build
MESON_SETUP_ARGS ?=

.PHONY: all deps build test test-slow run bench clean

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

run: build
	@./tools/run_example.sh $(BUILD)

bench: build
	@$(BUILD)/tests/bench/polydat-bench
	@$(BUILD)/tests/systemc/polydat-systemc-bench

clean:
	rm -rf $(BUILD)
