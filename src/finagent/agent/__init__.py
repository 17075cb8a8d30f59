"""The research agent: question understanding, the LangGraph graph and its nodes."""
