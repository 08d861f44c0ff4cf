"""Puts tests/ on sys.path for every test module, so that the shared RTL-test helpers in
tests/verilator_env.py import from tests/hw, tests/backends and tests/synth alike."""
