"""Pure rules engines: no Textual, no TinyDB, no clock, no global randomness.

Time and randomness come in as arguments; `tests/test_import_hygiene.py` enforces it.
"""
