"""Reports generated from bench/results/*.json: `montu report` writes docs/performance.md."""
