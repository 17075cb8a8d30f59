"""finagent: a cited financial research agent over SEC filings, transcripts, news and market data."""

__version__ = "0.1.0"
