"""The conformance suite's data (cases/, expected/, fixtures/), installed as
``openbone.selftest.suite``: run it with ``openbone selftest`` or ``pytest --pyargs openbone.selftest``."""
