"""Benchmarks, each run as a script: ``python bench/NAME.py``.

A package so that ``bench/storage.py`` is the module ``bench.storage`` to mypy rather
than a second top-level ``storage`` beside the real one.
"""
