"""Ways in from outside: the MCP server and the LangChain tool."""
