"""Reports outside the graph: the facts table shared by the CLI, the MCP server and the Python API."""
