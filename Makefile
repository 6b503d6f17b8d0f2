# Developer targets.  The test suite itself is `python -m pytest` (README.md).
PYTHON ?= python
# libstdc++ is preloaded too, so that C++ extensions loaded later (matplotlib)
# find the real __cxa_throw under ASan's interceptors
ASAN_LIB := $(shell gcc -print-file-name=libasan.so) $(shell gcc -print-file-name=libstdc++.so)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g

.PHONY: build test asan fuzz ctest clean differential

build:  # without build isolation the build tools must be new enough: setuptools >= 77 (SPDX licence)
	$(PYTHON) -m pip install -q 'setuptools>=77' && $(PYTHON) -m pip install -e . --no-build-isolation -q

test: build
	$(PYTHON) -m pytest -q

ctest:
	$(MAKE) -C tests/c check
	$(MAKE) -C tests/c asan

# Rebuild the extension with ASan + UBSan, run the whole suite under it, then
# rebuild it normally.  (CPython itself is not instrumented, so leak checks are
# left to the C checkers and the fuzzers, which run LeakSanitizer.)
asan:
	OPENBONE_CFLAGS="$(SAN_FLAGS)" OPENBONE_LDFLAGS="-fsanitize=address,undefined" \
		$(PYTHON) setup.py -q build_ext --inplace --force
	LD_PRELOAD="$(ASAN_LIB)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 OPENBONE_SANITIZED=1 \
		$(PYTHON) -m pytest -q -p no:cacheprovider -n auto --dist loadfile; status=$$?; \
		$(PYTHON) setup.py -q build_ext --inplace --force; exit $$status

# libFuzzer on both loaders for FUZZ_SECONDS each (crashes land in tests/fuzz/).
FUZZ_SECONDS ?= 180
GEN_CORPUS ?= 400
fuzz:
	$(MAKE) -C tests/fuzz corpus_document long FUZZ_SECONDS=$(FUZZ_SECONDS) GEN_CORPUS=$(GEN_CORPUS)

# Differential testing (issue 22): N generated documents from SEED through the C core and
# the oracles; disagreements are reduced into tests/data/differential/new/ for review.
N ?= 5000
SEED ?= 0
differential:
	$(PYTHON) tests/differential run --n $(N) --seed $(SEED)

clean:
	rm -rf build dist wheelhouse openbone/*.so
	$(MAKE) -C tests/c clean
