"""`finagent.as_tool()` inside a small LangGraph agent whose model is scripted (no LLM needed)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

import finagent
from finagent.agent.context import Context
from finagent.agent.resources import configure_resources
from finagent.db import Database
from finagent.settings import Settings
from tests.store.test_graph import GOOD, script, store  # noqa: F401  (store: a fixture)


class ToolCallingFake(BaseChatModel):
    """An outer agent's model: first asks the finagent tool, then repeats what the tool said."""

    tool_args: dict[str, Any]

    @property
    def _llm_type(self) -> str:
        return "tool-calling-fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            message = AIMessage(f"The research tool says: {last.content}")
        else:
            call = {"name": "financial_research", "args": self.tool_args, "id": "call-1", "type": "tool_call"}
            message = AIMessage("", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=message)])


def outer_agent(tool_args: dict[str, Any]) -> Any:
    """The smallest tool-using LangGraph agent: model ⇄ ToolNode."""
    tool = finagent.as_tool(context=Context(today="2023-11-21", use_tools=False))
    model = ToolCallingFake(tool_args=tool_args).bind_tools([tool])

    async def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("model", call_model)
    builder.add_node("tools", ToolNode([tool]))
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition, ["tools", END])
    builder.add_edge("tools", "model")
    return builder.compile()


def run_agent(tool_args: dict[str, Any]) -> list[BaseMessage]:
    agent = outer_agent(tool_args)
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("How much did Apple sell in Q3 FY2023?")]}))
    return list(state["messages"])


def test_tool_schema_is_fit_for_a_model() -> None:
    tool = finagent.as_tool()
    from langchain_core.utils.function_calling import convert_to_openai_tool

    schema = convert_to_openai_tool(tool)["function"]["parameters"]
    assert tool.name == "financial_research" and "cited answer" in tool.description
    assert schema["required"] == ["question"]
    assert set(schema["properties"]) == {"question", "tickers", "periods", "answer_mode"}


def test_agent_calls_finagent_and_gets_a_cited_answer(store: Database, settings: Settings) -> None:  # noqa: F811
    configure_resources(settings, chat_model_factory=script([GOOD]))
    messages = run_agent(
        {"question": "What were Apple's total net sales in Q3 FY2023?", "answer_mode": "direct"}
    )
    tool_message = next(m for m in messages if isinstance(m, ToolMessage))
    result = json.loads(str(tool_message.content))
    assert "81,797" in result["answer"]
    assert any(c["ticker"] == "AAPL" and c["period"] == "Q3 FY2023" for c in result["citations"])
    assert 0 <= result["confidence"] <= 1
    assert str(messages[-1].content).startswith("The research tool says:")


def test_bad_arguments_reach_the_agent_as_a_tool_error(store: Database, settings: Settings) -> None:  # noqa: F811
    configure_resources(settings, chat_model_factory=script([GOOD]))
    messages = run_agent({"question": "", "answer_mode": "sideways"})
    tool_message = next(m for m in messages if isinstance(m, ToolMessage))
    assert tool_message.status == "error" or "error" in str(tool_message.content).lower()
    assert "answer_mode" in str(tool_message.content) and "question" in str(tool_message.content)
