"""The graph's nodes, one module per step (``agent/graph.py`` wires them)."""
