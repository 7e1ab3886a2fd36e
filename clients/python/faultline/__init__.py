"""Faultline's Python client: an agent that runs elsewhere asks Faultline before every call.

Standard library only (``urllib``, ``json``). The verbs are the runs API's::

    from faultline import Faultline, Rejected

    fl = Faultline("http://localhost:3000", token="flt_…")
    run = fl.runs.create(name="Say hello", objective="Print hello", allowedBinaries=["echo"])

    @run.governed("shell")
    def shell(command: str, args: list[str]) -> dict:
        ...

    shell(command="echo", args=["hello"])   # proposed, approved, run, reported
    run.finish("Said hello.")
    print(run.wait_until_done(60)["finalStatus"])
"""

from __future__ import annotations

import functools
import inspect
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar, cast

__all__ = ["Faultline", "Runs", "Run", "FaultlineError", "Rejected", "WaitTimeout"]
__version__ = "0.1.0"

Json = Dict[str, Any]
F = TypeVar("F", bound=Callable[..., Any])

#: The longest one long poll may ask the server to hold (the API refuses more than 60 seconds).
MAX_WAIT_SECONDS = 60


class FaultlineError(Exception):
    """The API refused a request: ``status`` (HTTP), ``code`` (``bad_request``, ``forbidden``,
    ``not_found``, ``conflict``, …), ``message`` (the server's words) and ``details`` (field errors)."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details


class Rejected(Exception):
    """Faultline did not approve a call: it must not run.

    ``reason`` says why, ``failure_reason`` is the classified reason (e.g. ``AUTHORITY_REJECTION``),
    ``authority`` who decided, ``counterfactual`` what would have changed the decision, and
    ``proposal`` the whole proposal as the API answered it."""

    def __init__(self, proposal: Json) -> None:
        decision: Json = proposal.get("decision") or {}
        self.proposal = proposal
        self.proposal_id: Optional[str] = proposal.get("id")
        self.tool: Optional[str] = proposal.get("tool")
        self.reason: Optional[str] = decision.get("reason")
        self.failure_reason: Optional[str] = decision.get("failureReason")
        self.authority: Optional[str] = decision.get("authority")
        self.counterfactual: Any = decision.get("counterfactual")
        super().__init__(f"{self.tool or 'call'} rejected ({self.failure_reason or 'no reason code'}, by {self.authority or 'the authority'}): {self.reason or 'no reason given'}")


class WaitTimeout(Exception):
    """A wait ended before its answer: the proposal is still pending, or the run has not ended."""

    def __init__(self, message: str, last: Json) -> None:
        super().__init__(message)
        self.last = last


class Faultline:
    """A connection to one Faultline server, authenticated with an API token (``flt_…``)."""

    def __init__(self, url: str, token: Optional[str] = None, *, timeout: float = 30.0, user_agent: str = f"faultline-python/{__version__}") -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.user_agent = user_agent
        self.runs = Runs(self)

    # ── HTTP
    def request(self, method: str, path: str, body: Optional[Mapping[str, Any]] = None, *, query: Optional[Mapping[str, Any]] = None, timeout: Optional[float] = None) -> Json:
        """One API call; the JSON answer, or :class:`FaultlineError` with the server's message."""
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        data: Optional[bytes] = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout if timeout is not None else self.timeout) as res:
                raw = res.read()
        except urllib.error.HTTPError as e:
            raise _api_error(e.code, e.read()) from None
        except urllib.error.URLError as e:
            raise FaultlineError(0, "unreachable", f"{method} {url}: {e.reason}") from None
        return cast(Json, json.loads(raw)) if raw else {}

    # ── proposals
    def proposal(self, proposal_id: str, wait: float = 0) -> Json:
        """``GET /api/v1/proposals/{id}``: ``{proposal, prompt, decision}``; ``wait`` seconds (≤ 60) long-polls while pending."""
        wait = max(0, min(MAX_WAIT_SECONDS, int(wait)))
        return self.request("GET", f"/api/v1/proposals/{_q(proposal_id)}", query={"wait": wait} if wait else None, timeout=self.timeout + wait)

    def wait(self, proposal_id: str, timeout: float = 300) -> Json:
        """Waits (long polls) until the proposal is decided; returns the proposal (``status``
        approved or rejected, ``decision``). :class:`WaitTimeout` when still pending after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            answer = self.proposal(proposal_id, wait=max(0, min(MAX_WAIT_SECONDS, left)))
            p = _merged(answer)
            if p.get("status") != "pending":
                return p
            if time.monotonic() >= deadline:
                raise WaitTimeout(f"proposal {proposal_id} is still pending after {timeout:g}s", p)


class Runs:
    """``fl.runs``: create a run, or open one by its id."""

    def __init__(self, client: Faultline) -> None:
        self._client = client

    def create(self, name: str, objective: str, *, via: str = "python", **fields: Any) -> "Run":
        """``POST /api/v1/runs``. ``fields`` are the API's own names: ``allowedBinaries``, ``agents``,
        ``rules``, ``evidence``, ``level``, ``heartbeatTimeoutMs``, ``workspace``."""
        body: Json = {"name": name, "objective": objective, "via": via, **fields}
        return Run(self._client, self._client.request("POST", "/api/v1/runs", body)["run"])

    def get(self, run_id: str) -> "Run":
        """``GET /api/v1/runs/{id}``."""
        return Run(self._client, self._client.request("GET", f"/api/v1/runs/{_q(run_id)}")["run"])


class Run:
    """One run. ``data`` is the run as the API last answered it (``runState``, ``finalStatus``, ``agents``, …)."""

    def __init__(self, client: Faultline, data: Json) -> None:
        self._client = client
        self.data = data
        self.id: str = data["id"]

    def __repr__(self) -> str:
        return f"Run({self.id!r}, runState={self.data.get('runState')!r}, finalStatus={self.data.get('finalStatus')!r})"

    def _path(self, tail: str = "") -> str:
        return f"/api/v1/runs/{_q(self.id)}{tail}"

    def refresh(self, wait: float = 0) -> Json:
        """``GET /api/v1/runs/{id}`` (``wait`` ≤ 60 seconds long-polls until it ends); updates ``data``."""
        wait = max(0, min(MAX_WAIT_SECONDS, int(wait)))
        self.data = self._client.request("GET", self._path(), query={"wait": wait} if wait else None, timeout=self._client.timeout + wait)["run"]
        return self.data

    def propose(self, call_id: str, tool: str, args: Optional[Mapping[str, Any]] = None, agent: Optional[str] = None) -> Json:
        """``POST /api/v1/runs/{id}/proposals``: the proposal with ``status`` approved (run exactly
        ``args``), rejected (do not run it) or pending (:meth:`wait`). Idempotent on ``call_id``."""
        body: Json = {"callId": call_id, "tool": tool, "args": dict(args or {})}
        if agent is not None:
            body["agent"] = agent
        return cast(Json, self._client.request("POST", self._path("/proposals"), body)["proposal"])

    def wait(self, proposal_id: str, timeout: float = 300) -> Json:
        """Waits until the proposal is decided (see :meth:`Faultline.wait`)."""
        return self._client.wait(proposal_id, timeout)

    def report(self, call_id: str, ok: bool, data: Any = None, error: Any = None, agent: Optional[str] = None) -> Json:
        """``POST /api/v1/runs/{id}/results``: an approved call's result. ``ok=True`` needs ``data``
        (a dict; ``{}`` when it returned nothing); ``ok=False`` needs ``error`` (a message or ``{"message": …}``)."""
        result: Json = {"ok": ok}
        if ok:
            result["data"] = {} if data is None else data
        else:
            result["error"] = error if error is not None else {"message": "failed (no message)"}
            if data is not None:
                result["data"] = data
        body: Json = {"callId": call_id, "result": result}
        if agent is not None:
            body["agent"] = agent
        return cast(Json, self._client.request("POST", self._path("/results"), body)["result"])

    def finish(self, summary: Optional[str] = None, agent: Optional[str] = None) -> Json:
        """``POST /api/v1/runs/{id}/finish``: ``{finishes, run}``; the evidence decides (each finish is approved or rejected)."""
        body: Json = {"summary": summary}
        if agent is not None:
            body["agent"] = agent
        answer = self._client.request("POST", self._path("/finish"), body)
        self.data = {**self.data, **answer.get("run", {})}
        return answer

    def heartbeat(self) -> Json:
        """``POST /api/v1/runs/{id}/heartbeat``: the agent is alive (resumes a run its silence paused)."""
        return cast(Json, self._client.request("POST", self._path("/heartbeat"))["run"])

    def wait_until_done(self, timeout: float = 300) -> Json:
        """Long polls until the run has ended (``finalStatus`` set); returns the run.
        :class:`WaitTimeout` when it has not after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            r = self.refresh(wait=max(0, min(MAX_WAIT_SECONDS, left)))
            if r.get("finalStatus"):
                return r
            if time.monotonic() >= deadline:
                raise WaitTimeout(f"run {self.id} has not ended after {timeout:g}s (runState {r.get('runState')})", r)

    def governed(self, tool: str, *, agent: Optional[str] = None, wait_timeout: float = 300) -> Callable[[F], F]:
        """A decorator: every call of the function is proposed first (its arguments, by name, are the
        call's args), waited on while pending, and run only when approved (with the args as approved:
        a person may modify them); its return value is reported (a dict as it is, anything else as
        ``{"output": value}``) or its exception as a failure, then returned or re-raised.
        A rejected call raises :class:`Rejected` and the function is not called."""

        def decorate(fn: F) -> F:
            sig = inspect.signature(fn)

            @functools.wraps(fn)
            def wrapper(*a: Any, **kw: Any) -> Any:
                bound = sig.bind(*a, **kw)
                bound.apply_defaults()
                args = _jsonable(dict(bound.arguments))
                call_id = f"{tool}-{uuid.uuid4()}"
                p = self.propose(call_id, tool, args, agent=agent)
                if p.get("status") == "pending":
                    p = self.wait(p["id"], wait_timeout)
                if p.get("status") != "approved":
                    raise Rejected(p)
                approved = p.get("args")
                try:
                    value = fn(**approved) if isinstance(approved, dict) and approved != args else fn(*bound.args, **bound.kwargs)
                except BaseException as e:
                    self.report(call_id, ok=False, error=_error_of(e), agent=agent)
                    raise
                self.report(call_id, ok=True, data=value if isinstance(value, dict) else {"output": _jsonable(value)}, agent=agent)
                return value

            return cast(F, wrapper)

        return decorate


# ── helpers
def _q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


def _api_error(status: int, raw: bytes) -> FaultlineError:
    try:
        err = json.loads(raw).get("error") or {}
    except (ValueError, AttributeError):
        err = {}
    if not isinstance(err, dict):
        err = {"message": str(err)}
    message = err.get("message") or raw.decode("utf-8", "replace").strip()[:500] or f"HTTP {status}"
    return FaultlineError(status, str(err.get("code") or "http_error"), message, err.get("details"))


def _merged(answer: Json) -> Json:
    """``GET /api/v1/proposals/{id}`` answers ``{proposal, prompt, decision}``: one proposal dict, as ``propose`` answers."""
    p: Json = dict(answer.get("proposal") or answer)
    if answer.get("decision") is not None:
        p["decision"] = answer["decision"]
    if "prompt" in answer:
        p["prompt"] = answer["prompt"]
    return p


def _jsonable(value: Any) -> Any:
    """The value as JSON would carry it (anything JSON cannot carry becomes its ``str``)."""
    return json.loads(json.dumps(value, default=str))


def _error_of(e: BaseException) -> Json:
    err: Json = {"message": str(e) or type(e).__name__, "type": type(e).__name__}
    code = getattr(e, "returncode", None)
    if isinstance(code, int):
        err["exitCode"] = code
    for name in ("stderr", "stdout"):
        v = getattr(e, name, None)
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        if isinstance(v, str) and v:
            err[name] = v[-4000:]
    return err
