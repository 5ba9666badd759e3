# Almanac: `make run` starts it with the demo games, `make test` runs every test.
# Nothing else to set up: cargo fetches the crates, SQLite is compiled in (rusqlite "bundled").

DB ?= data/almanac.db
CARGO ?= cargo
# A corpus of catanatron games for `make bench` (made with ../shared/tools/catanatron_dump.py).
CORPUS ?= bench-corpus
CATANATRON_TOOL ?= ../shared/tools/catanatron_dump.py

.PHONY: run build test lint bench bench-corpus clean

run: build
	./target/release/almanac demo --db $(DB) --samples data/samples

build:
	$(CARGO) build --release --bin almanac

test:
	$(CARGO) test --workspace

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

# 1,000 catanatron games (about two minutes), then the speed figures.
bench: build $(CORPUS)/.done
	./target/release/almanac bench $(CORPUS)

bench-corpus: $(CORPUS)/.done

$(CORPUS)/.done:
	python3 -m venv .venv-catanatron
	.venv-catanatron/bin/pip install --quiet catanatron==3.2.1
	.venv-catanatron/bin/python $(CATANATRON_TOOL) --num 1000 --seed 10000 --out $(CORPUS)
	touch $@

clean:
	$(CARGO) clean
	rm -f $(DB) $(DB)-wal $(DB)-shm
