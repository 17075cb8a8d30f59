"""Language models: Cerebras, OpenAI(-compatible) and an offline local model, behind one role-based API.

Imports here stay light: nothing loads a model or touches the network until a request is made.
"""

from __future__ import annotations

from finagent.llm.cerebras import ChatCerebras
from finagent.llm.local_model import (
    LocalModelError,
    LocalModelServer,
    assemble_gguf,
    get_local_server,
    local_model_available,
    stop_local_server,
)
from finagent.llm.providers import (
    ProviderName,
    Role,
    chat_model_for_role,
    make_chat_model,
    provider_chain,
)
from finagent.llm.structured import LLMCall, structured_call, text_call

__all__ = [
    "ChatCerebras",
    "LLMCall",
    "LocalModelError",
    "LocalModelServer",
    "ProviderName",
    "Role",
    "assemble_gguf",
    "chat_model_for_role",
    "get_local_server",
    "local_model_available",
    "make_chat_model",
    "provider_chain",
    "stop_local_server",
    "structured_call",
    "text_call",
]
