# The two set-up commands are `make run` and `make test`; everything else is reached from them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Models come from local files only; nothing is fetched from a model hub.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# Tests share one assembled copy of the default model instead of 1 GB per test data folder.
TEST_MODELS_DIR := $(CURDIR)/.cache/models

.PHONY: run test install models demo clean bench bench-latency bench-import bench-retrieval bench-startup

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[models,dev]'
	touch $@

install: $(STAMP)

models: install
	$(BIN)/desktop-app-cli models prepare

run: models
	$(BIN)/desktop-app-cli demo

demo: models
	$(BIN)/desktop-app-cli demo

test: install
	DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/desktop-app-cli models prepare
	QT_QPA_PLATFORM=offscreen DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .cache build dist *.egg-info

# Benchmarks (issue 5): each prints a table and writes JSON into bench/results/. Not tests: they take minutes.
BENCH_ENV := QT_QPA_PLATFORM=offscreen DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR)
R_MANUALS := /usr/share/R/doc/manual/R-intro.pdf

$(R_MANUALS):
	@echo "The benchmarks read the R manuals: sudo apt-get update && sudo apt-get install -y r-doc-pdf" && false

bench-latency: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.answer_latency --repeats 2

bench-import: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.import_throughput

bench-retrieval: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.retrieval_scale --sizes 10000,100000,1000000

bench-startup: install
	$(BENCH_ENV) $(BIN)/python -m bench.startup

bench: bench-startup bench-retrieval bench-import bench-latency
