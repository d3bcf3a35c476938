"""Benchmarks: ``python -m bench`` runs the ``main()`` of every ``bench/bench_*.py`` module."""
