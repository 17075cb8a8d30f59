"""Checking an answer against its sources: every figure's value *and* period (``verify``, ``scope``,
``matching``), copied figures, verdicts, the support of each sentence and stated changes."""
