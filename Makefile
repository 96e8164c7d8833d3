# Plateau's entry points (see README.md). Each target installs what is missing first.
#   make run    install, build (release), start the server (plateau serve; data in ./data)
#   make test   install, build (release + asan), run every test with ctest
#   make bench  install, build (release), run the benchmarks
PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: all deps build build-asan run test test-release test-asan bench clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake --preset $(PRESET) >/dev/null
	cmake --build --preset $(PRESET) -j $(JOBS)

build-asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

run: build
	./build/$(PRESET)/plateau serve --data-dir ./data

test: test-release test-asan

test-release: build
	ctest --preset $(PRESET) -j $(JOBS)

test-asan: build-asan
	ctest --preset asan -j $(JOBS) -LE slow

bench: build
	./scripts/run-bench.sh build/$(PRESET)

clean:
	rm -rf build
