"""Benchmark commands (`montu bench ...`): they print tables and write bench/results/*.json."""
