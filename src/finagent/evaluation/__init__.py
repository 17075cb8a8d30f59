"""Evaluation harness: benchmark corpora, retrieval and answer metrics, baselines."""
