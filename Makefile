# hxemu front end. CMake does the real build (build/); these targets are what users type.
#   make run    install missing packages, build, run the main job on the built-in configuration
#   make test   install missing packages, build, run every test through CTest
#   make lint   Verilator -Wall, Icarus and Yosys over every RTL top
#   make synth  Yosys cells and flip-flops of the router, switch and NIC at a configuration's design
#               point, and the system's total (CONFIG=configs/X.json; build/hxemu area, docs/area.md)
#   make bench  emulation speed of build/hxemu (cycles/s, router-cycles/s, memory; BASELINE=other hxemu)
#   make asan-test  the remote host interface's tests under AddressSanitizer, in build-asan

BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE = 1

.PHONY: all deps deps-synth configure build test run lint synth bench asan-test ubsan-test clean

all: build

deps:
	@scripts/install-deps.sh

deps-synth:
	@scripts/install-deps.sh synth

# Ninja: it starts a target's compiles before the libraries it links are built (Makefiles wait for
# them), so both cores stay busy through the long model build. clang++: it compiles the verilated
# models' per-cycle code in 279 s of CPU where g++ 12 takes 719 s, and the binary runs 3-10% faster
# (README, Build). HX_CXX=g++ builds with GCC.
HX_CXX ?= clang++
$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(HX_CXX) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	+cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: build
	$(BUILD)/hxemu run

lint: deps deps-synth
	scripts/lint.sh

# CONFIG: the configuration `make synth` reports the blocks of; SYNTH_ARGS: more `hxemu area`
# options (--rails 1, --refresh, --timeout S). Only hxemu is built, not the tests.
CONFIG ?= configs/hx2mesh-64.json
SYNTH_ARGS ?=
synth: configure deps-synth
	+cmake --build $(BUILD) --target hxemu -j $(JOBS)
	HXEMU=$(BUILD)/hxemu scripts/synth.sh $(CONFIG) $(SYNTH_ARGS)

# BASELINE=PATH: another revision's hxemu binary run side by side (scripts/build-revision.sh REV DIR
# builds one at DIR/build/hxemu); BENCH_ARGS: more hxemu-bench options (--repeat N, --cases ...).
BASELINE ?=
bench: build
	$(BUILD)/hxemu-bench --json $(BUILD)/bench.json $(if $(BASELINE),--baseline $(BASELINE)) $(BENCH_ARGS)

# A separate build with -DHX_SANITIZE=address (the verilated models stay uninstrumented); its first
# run verilates and compiles the models again. Kept out of `make test` for that build time.
# ASAN_ALL=1: every test instead of the remote interface's (about 15 min of build and 9-10 min of
# tests on 2 cores; the mpirun tests' ranks ignore Open MPI's own leaks, tests/app/lsan-openmpi.supp).
ASAN_BUILD ?= build-asan
ASAN_ALL ?=
asan-test: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=$(HX_CXX) -DCMAKE_BUILD_TYPE=Release -DHX_SANITIZE=address $(CMAKE_FLAGS)
	+cmake --build $(ASAN_BUILD) -j $(JOBS) $(if $(ASAN_ALL),,--target test_sw_remote)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 ctest $(if $(ASAN_ALL),,-L remote) --output-on-failure -j $(JOBS)

# Every test with -DHX_SANITIZE=undefined (UndefinedBehaviorSanitizer over hxemu's own code, every
# finding fatal), in a build of its own: about 17 min of build and 5 min of tests on 2 cores.
UBSAN_BUILD ?= build-ubsan
ubsan-test: deps
	cmake -S . -B $(UBSAN_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=$(HX_CXX) -DCMAKE_BUILD_TYPE=Release -DHX_SANITIZE=undefined $(CMAKE_FLAGS)
	+cmake --build $(UBSAN_BUILD) -j $(JOBS)
	cd $(UBSAN_BUILD) && UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
