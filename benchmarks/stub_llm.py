"""A fast OpenAI-compatible chat server for load tests: schema-valid replies per agent role, no model.

    python -m benchmarks.stub_llm --port 0 --latency-ms 20    # prints "listening on http://127.0.0.1:<port>"

The load benchmark replaces the language model with this server so that the load falls on the graph,
the embedder and the database, not on a CPU model. It answers POST /v1/chat/completions like an
OpenAI endpoint (plain JSON or SSE streaming with a final usage chunk) and GET /stats with its counters.

The role is read from the request's ``response_format`` (the json_schema name the agent binds:
QuestionAnalysis*, Facts*, Evaluation) or, without one, from the system prompt; each reply is built
from that schema's own enums (tickers, period labels, evidence ids), so it validates like a good
model's reply would. It runs in its own process (``StubServer``) so its CPU time and memory are not
counted as the agent's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from types import TracebackType
from typing import Any

REPO = Path(__file__).resolve().parents[1]

EVIDENCE = re.compile(r'<evidence id="([^"]+)" from="([^"]*)">\n(.*?)\n</evidence>', re.S)
PERIOD = re.compile(r"\b(Q[1-4] FY\d{4}|FY\d{4})\b")
# A table row "| Total net sales | 81,797 | ..." -> (label, first number)
TABLE_ROW = re.compile(r"^\|\s*([A-Za-z][^|\n]{1,79}?)\s*\|\s*\$?\s*\(?(\d[\d,]*(?:\.\d+)?)\)?\s*\|", re.M)
FIGURE_LINE = re.compile(r"^- ((?:Q[1-4] )?FY\d{4}) ([^:\n]+): ([^\n\[]+?) \[(\w+)\]$", re.M)
CITATION = re.compile(r"\[((?:10K|10Q|8K|ER|N|M)?\d+)\]")
COMPANIES = re.compile(r"\b([A-Z][A-Z.]{0,5})\b(?: \([^)]*\))?")
# Question words -> the statement phrase a good analyzer suggests.
PHRASES = [
    ("net income", "net income"),
    ("operating income", "operating income"),
    ("gross margin", "gross margin"),
    ("research", "research and development"),
    ("cash", "cash and cash equivalents"),
    ("net sales", "total net sales"),
    ("revenue", "total revenue"),
    ("sales", "total net sales"),
]
GOOD_EVALUATION = {
    "completeness": 92,
    "specificity": 90,
    "accuracy": 94,
    "clarity": 91,
    "follow_up_keywords": [],
    "needs_transcript_search": False,
    "needs_news_search": False,
    "satisfied": True,
}


# -- replies ------------------------------------------------------------------------------------


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _line(prompt: str, prefix: str) -> str:
    for line in prompt.splitlines():
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    return ""


def _allowed(prop: dict[str, Any] | None) -> list[Any] | None:
    """The values a schema property admits (const or enum), None when it is free."""
    if not prop:
        return None
    if "const" in prop:
        return [prop["const"]]
    if "enum" in prop:
        return list(prop["enum"])
    return None


def _item_schema(schema: dict[str, Any], field: str) -> dict[str, Any]:
    """The (dereferenced) schema of the items of array property ``field``."""
    items = schema.get("properties", {}).get(field, {}).get("items", {})
    ref = items.get("$ref", "")
    if ref.startswith("#/$defs/"):
        return dict(schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {}))
    return dict(items)


def _max_items(schema: dict[str, Any], field: str, default: int) -> int:
    return int(schema.get("properties", {}).get(field, {}).get("maxItems", default))


def analyze_reply(schema: dict[str, Any], prompt: str) -> dict[str, Any]:
    """Intent, sources, mode and one statement phrase per ticker the schema admits."""
    question = _line(prompt, "Question:")
    tickers = _allowed(_item_schema(schema, "keywords").get("properties", {}).get("ticker"))
    if tickers is None:
        tickers = [t for t in COMPANIES.findall(_line(prompt, "Companies:")) if t != "none"]
    lower = question.lower()
    phrases = list(dict.fromkeys(p for cue, p in PHRASES if cue in lower))[:2] or ["total revenue"]
    keywords = [{"ticker": t, "phrases": phrases} for t in tickers]
    return {
        "intent": f"figures asked: {question}"[:300],
        "sources": ["10-Q"],
        "answer_mode": "standard",
        "keywords": keywords[: _max_items(schema, "keywords", 8)],
    }


def extract_reply(schema: dict[str, Any], prompt: str) -> dict[str, Any]:
    """The first table figure of each evidence item, labelled with values the schema admits."""
    fact = _item_schema(schema, "facts").get("properties", {})
    tickers, periods = _allowed(fact.get("ticker")), _allowed(fact.get("period"))
    sources, metrics = _allowed(fact.get("source")), _allowed(fact.get("metric"))
    facts: list[dict[str, Any]] = []
    for label, origin, body in EVIDENCE.findall(prompt):
        row = TABLE_ROW.search(body)
        period = PERIOD.search(origin)
        ticker = origin.split(" ", 1)[0]
        if row is None or period is None or (sources is not None and label not in sources):
            continue
        if periods is not None and period.group(1) not in periods:
            continue
        if tickers is not None and ticker not in tickers:
            if len(tickers) != 1:
                continue
            ticker = tickers[0]
        facts.append(
            {
                "ticker": ticker,
                "period": period.group(1),
                "metric": metrics[0] if metrics else row.group(1)[:80],
                "value": float(row.group(2).replace(",", "")),
                "unit": "USD millions",
                "source": label,
            }
        )
    return {"facts": facts[: _max_items(schema, "facts", 24)]}


def prose_reply(prompt: str) -> str:
    """A short answer quoting the figures listed in the prompt (or citing the evidence) with labels."""
    sentences = [
        f"{metric.strip()} in {period} was {value.strip()} [{label}]."
        for period, metric, value, label in FIGURE_LINE.findall(prompt)[:4]
    ]
    if sentences:
        return " ".join(sentences)
    labels = list(dict.fromkeys(re.findall(r'<evidence id="([^"]+)"', prompt) + CITATION.findall(prompt)))
    cited = "".join(f"[{label}]" for label in labels[:3])
    return f"The figures asked for are reported in the cited filing excerpts {cited}.".replace("  ", " ")


def example(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """A minimal instance of any other JSON schema (roles this stub does not know by name)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return example(defs.get(schema["$ref"].removeprefix("#/$defs/"), {}), defs)
    if "default" in schema:
        return schema["default"]
    allowed = _allowed(schema)
    if allowed:
        return allowed[0]
    if "anyOf" in schema:
        return example(schema["anyOf"][0], defs)
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: example(v, defs) for k, v in props.items() if k in schema.get("required", [])}
    return {"array": [], "string": "stub", "integer": 0, "number": 0.0, "boolean": False}.get(str(kind))


def reply_for(body: dict[str, Any]) -> tuple[str, str]:
    """(role, reply text) for one chat.completions request body."""
    messages = body.get("messages") or []
    system = next((_text(m.get("content")) for m in messages if m.get("role") == "system"), "")
    prompt = _text(messages[-1].get("content")) if messages else ""
    # A repair round repeats the first prompt, so the role's inputs are read from the first user turn.
    first_user = next((_text(m.get("content")) for m in messages if m.get("role") == "user"), prompt)
    response_format = body.get("response_format") or {}
    spec = response_format.get("json_schema") or {}
    name, schema = str(spec.get("name") or ""), dict(spec.get("schema") or {})
    if name.startswith("QuestionAnalysis") or (not name and system.startswith("You analyze questions")):
        return "analyze", json.dumps(analyze_reply(schema, first_user))
    if name.startswith("Facts") or (not name and system.startswith("You read financial evidence")):
        return "extract", json.dumps(extract_reply(schema, first_user))
    if name.startswith("Evaluation") or (not name and system.startswith("You grade an answer")):
        return "evaluate", json.dumps(GOOD_EVALUATION)
    if schema:
        return name or "json", json.dumps(example(schema))
    return "generate", prose_reply(first_user)


# -- the server ---------------------------------------------------------------------------------


def _usage(body: dict[str, Any], text: str) -> dict[str, int]:
    """Token counts at ~4 characters a token, so runs report plausible usage."""
    prompt = sum(len(_text(m.get("content"))) for m in body.get("messages") or []) // 4 + 1
    completion = len(text) // 4 + 1
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def build_app(latency_s: float) -> Any:
    """The Starlette app; counters live in the closure and are served at GET /stats."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    stats: dict[str, Any] = {"requests": 0, "errors": 0, "streamed": 0, "in_flight": 0, "max_in_flight": 0}
    roles: Counter[str] = Counter()

    async def completions(request: Request) -> Response:
        stats["requests"] += 1
        stats["in_flight"] += 1
        stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
        try:
            body = await request.json()
            role, text = reply_for(body)
            roles[role] += 1
            if latency_s:
                await asyncio.sleep(latency_s)
        except Exception as exc:  # a broken stub must show up as an error, not a hang
            stats["errors"] += 1
            return JSONResponse({"error": {"message": repr(exc), "type": "stub_error"}}, status_code=500)
        finally:
            stats["in_flight"] -= 1
        model = str(body.get("model") or "stub")
        created = int(time.time())
        ident = f"chatcmpl-stub{stats['requests']}"
        usage = _usage(body, text)
        if body.get("stream"):
            stats["streamed"] += 1
            with_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            return StreamingResponse(
                _sse(ident, created, model, text, usage if with_usage else None),
                media_type="text/event-stream",
            )
        message = {"role": "assistant", "content": text}
        choice = {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
        return JSONResponse(
            {
                "id": ident,
                "object": "chat.completion",
                "created": created,
                "model": model,
                "choices": [choice],
                "usage": usage,
            }
        )

    async def stats_view(request: Request) -> Response:
        return JSONResponse({**stats, "by_role": dict(roles)})

    async def models(request: Request) -> Response:
        return JSONResponse(
            {"object": "list", "data": [{"id": "stub", "object": "model", "owned_by": "stub"}]}
        )

    return Starlette(
        routes=[
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/stats", stats_view, methods=["GET"]),
        ]
    )


async def _sse(
    ident: str, created: int, model: str, text: str, usage: dict[str, int] | None
) -> AsyncIterator[bytes]:
    """OpenAI streaming: a role delta, content deltas, a finish chunk, then usage if asked, [DONE]."""

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
        choices = [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]
        payload = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": choices,
            **extra,
        }
        return f"data: {json.dumps(payload)}\n\n".encode()

    yield chunk({"role": "assistant", "content": ""})
    step = max(1, len(text) // 4)
    for start in range(0, len(text), step):
        yield chunk({"content": text[start : start + step]})
    yield chunk({}, "stop")
    if usage is not None:
        payload = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [],
            "usage": usage,
        }
        yield f"data: {json.dumps(payload)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def serve(port: int, latency_ms: float) -> None:
    """Bind 127.0.0.1 (port 0 = any free one), announce the URL on stdout, serve until killed."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(
        build_app(latency_ms / 1000), log_level="warning", access_log=False, backlog=2048, lifespan="off"
    )
    uvicorn.Server(config).run(sockets=[sock])


class StubServer:
    """The stub in a child process: ``with StubServer(latency_ms=20) as stub: stub.base_url``."""

    def __init__(self, latency_ms: float = 20.0, start_timeout: float = 60.0) -> None:
        self.latency_ms = latency_ms
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    @property
    def base_url(self) -> str:
        """What FINAGENT_OPENAI_BASE_URL takes."""
        return f"{self.url}/v1"

    def start(self) -> StubServer:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.stub_llm",
                "--port",
                "0",
                "--latency-ms",
                str(self.latency_ms),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()  # blocks until the socket is bound
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"the stub LLM server did not start (said {line!r})")
        self.url = line.removeprefix("listening on ")
        deadline = time.monotonic() + self.start_timeout
        while True:  # bound is not serving yet: wait for the first answer
            try:
                self.stats()
                return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("the stub LLM server did not answer") from None
                time.sleep(0.05)

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/stats", timeout=5) as response:
            return dict(json.loads(response.read()))

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=20.0, help="Artificial delay per reply.")
    args = parser.parse_args()
    serve(args.port, args.latency_ms)


if __name__ == "__main__":
    main()
