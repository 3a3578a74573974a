.PHONY: run test setup bench check-contract
run:            ## set up and serve the demo on http://127.0.0.1:8000
	scripts/run.sh
test:           ## set up and run every test
	scripts/test.sh
setup:
	scripts/setup.sh
bench:
	scripts/setup.sh && .venv/bin/python bench/engine.py
check-contract:
	scripts/setup.sh && ../shared/tools/check-contract
