"""Figures in text: reading them from tables and prose, the formulas over them, and the one check of
an answer's figures (value *and* period)."""
