"""Pure rules engines: no Textual, no TinyDB, no clock, no global randomness.

Time and randomness come in as arguments; the import-linter contracts (pyproject.toml) and
`tests/test_rules_read_no_clock.py` enforce it.
"""
