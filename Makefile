# Plateau's entry points (see README.md). Each target installs what is missing first.
#   make run    install, build (release), start the server (plateau serve; data in ./data)
#   make test   install, build (release) and the browser client, run every test with ctest;
#               then the same suite under AddressSanitizer + UBSan (preset asan; the tests
#               labelled slow or web are left out there), with the libFuzzer targets of
#               tests/fuzz (label fuzz, asan preset only: PLATEAU_FUZZ=ON)
#   make bench  install, build (release), run the benchmarks
#   make deb    install, build (release) and the browser client, then the Debian package
#               build/release/plateau_VERSION_amd64.deb (CPack; README "Installing")
PRESET ?= release
JOBS ?= $(shell nproc)

.PHONY: all deps build build-asan web run test test-release test-asan bench deb clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	cmake --preset $(PRESET) >/dev/null
	cmake --build --preset $(PRESET) -j $(JOBS)

build-asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

# The browser client (web/, Vite + TypeScript) built into web/dist, which `plateau serve` serves.
web:
	@if command -v npm >/dev/null 2>&1; then \
	  cd web && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build; \
	else echo "make web: npm not found; the server will run without the browser client"; fi

run: build
	-@$(MAKE) --no-print-directory web
	@echo "Plateau: http://localhost:8080 (browser), telnet localhost 8023 (text); Ctrl-C stops"
	./build/$(PRESET)/plateau serve --data-dir ./data

test: test-release test-asan

# The browser client is built first (its tests are in the suite; a failed build shows there).
test-release: build
	-@$(MAKE) --no-print-directory web
	ctest --preset $(PRESET) -j $(JOBS)

# The browser tests run against the release build only (web and browser labels left out here).
test-asan: build-asan
	ctest --preset asan -j $(JOBS) -LE 'slow|web'

bench: build
	./scripts/run-bench.sh build/$(PRESET)

deb: build
	-@$(MAKE) --no-print-directory web
	cd build/$(PRESET) && cpack -G DEB
	@if command -v lintian >/dev/null 2>&1; then lintian build/$(PRESET)/plateau_*_amd64.deb || true; fi

clean:
	rm -rf build
