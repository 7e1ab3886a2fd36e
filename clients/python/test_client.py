#!/usr/bin/env python3
"""The Python client against a real Faultline (standard library unittest).

    FAULTLINE_URL=http://localhost:3000 FAULTLINE_TOKEN=flt_… python3 clients/python/test_client.py

The token must belong to someone who may create runs and decide proposals (an operator). In the
repository this runs from ``clients/python/python-client.test.ts`` (vitest), which serves the real
route handlers on a test database with a real worker.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import unittest
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faultline import Faultline, FaultlineError, Rejected, Run, WaitTimeout  # noqa: E402

URL = os.environ.get("FAULTLINE_URL", "http://localhost:3000")
TOKEN = os.environ.get("FAULTLINE_TOKEN")


def client() -> Faultline:
    return Faultline(URL, TOKEN)


def decide_later(fl: Faultline, run: Run, call_id: str, decision: str, note: str, delay: float = 0.5) -> threading.Thread:
    """A person decides the pending proposal of ``call_id`` while the agent waits."""

    def act() -> None:
        time.sleep(delay)
        for _ in range(100):  # the proposal id, once the agent has proposed the call
            if call_id in pending_ids:
                break
            time.sleep(0.1)
        pid = pending_ids[call_id]
        fl.request("POST", f"/api/v1/proposals/{pid}/decision", {"decision": decision, "note": note})

    t = threading.Thread(target=act, daemon=True)
    t.start()
    return t


pending_ids: Dict[str, str] = {}


class ClientTest(unittest.TestCase):
    fl: Faultline

    @classmethod
    def setUpClass(cls) -> None:
        cls.fl = client()

    def test_1_errors_carry_status_code_and_the_servers_message(self) -> None:
        with self.assertRaises(FaultlineError) as e:
            Faultline(URL, "flt_not_a_token").runs.create(name="n", objective="o")
        self.assertEqual(e.exception.status, 401)
        with self.assertRaises(FaultlineError) as e:
            self.fl.runs.create(name="Bad", objective="bad evidence", evidence=[{"file_exists": "a.txt"}])
        self.assertEqual((e.exception.status, e.exception.code), (400, "bad_request"))
        self.assertRegex(e.exception.message, r"evidence: file_exists cannot be checked")
        with self.assertRaises(FaultlineError) as e:
            self.fl.runs.get("00000000-0000-4000-8000-000000000000")
        self.assertEqual(e.exception.status, 404)

    def test_2_propose_report_finish_wait_until_done(self) -> None:
        run = self.fl.runs.create(name="Python verbs", objective="List and say hello", allowedBinaries=["echo", "ls"])
        self.assertEqual(run.data["runState"], "running")
        p = run.propose("c1", "shell", {"command": "ls", "args": ["-la"]})
        self.assertEqual(p["status"], "approved")
        self.assertEqual(run.propose("c1", "shell", {"command": "ls", "args": ["-la"]})["id"], p["id"])
        with self.assertRaises(FaultlineError) as e:
            run.propose("c1", "shell", {"command": "ls", "args": ["/"]})
        self.assertEqual((e.exception.status, e.exception.code), (409, "conflict"))
        self.assertRegex(e.exception.message, r'callId "c1" was already used for another call')
        rm = run.propose("c2", "shell", {"command": "rm", "args": ["-rf", "/"]})
        self.assertEqual(rm["status"], "rejected")
        with self.assertRaises(FaultlineError) as e:
            run.report("c2", ok=True, data={})
        self.assertRegex(e.exception.message, r"is rejected, not approved: it must not run")
        with self.assertRaises(FaultlineError) as e:
            run.report("never", ok=True, data={})
        self.assertEqual(e.exception.status, 409)
        self.assertEqual(run.report("c1", ok=True, data={"stdout": "total 0\n", "exitCode": 0})["status"], "succeeded")
        self.assertEqual(run.heartbeat()["id"], run.id)
        fin = run.finish("Listed the directory.")
        self.assertEqual(fin["finishes"][0]["status"], "approved")
        done = run.wait_until_done(30)
        self.assertEqual(done["finalStatus"], "SUCCESS")

    def test_3_governed_runs_approved_calls_and_refuses_rejected_ones(self) -> None:
        run = self.fl.runs.create(name="Python decorator", objective="Echo, never delete", allowedBinaries=["echo"])
        calls: List[Dict[str, Any]] = []

        @run.governed("shell")
        def shell(command: str, args: List[str], cwd: str = ".") -> Any:
            calls.append({"command": command, "args": args, "cwd": cwd})
            return f"ran {command}"

        self.assertEqual(shell("echo", ["hi"]), "ran echo")
        with self.assertRaises(Rejected) as r:
            shell(command="rm", args=["-rf", "/"])
        self.assertEqual(len(calls), 1, "a rejected call must not run")
        self.assertEqual(r.exception.failure_reason, "AUTHORITY_REJECTION")
        self.assertTrue(r.exception.reason)
        self.assertTrue(r.exception.authority)
        self.assertIsNotNone(r.exception.proposal_id)
        self.assertIn("rejected", str(r.exception))
        run.finish("echoed")
        self.assertEqual(run.wait_until_done(30)["finalStatus"], "SUCCESS")

    def test_4_a_failing_function_is_reported_as_a_failure_and_re_raised(self) -> None:
        run = self.fl.runs.create(name="Python failure", objective="Fail once")

        @run.governed("Read")
        def read(file_path: str) -> Dict[str, Any]:
            raise PermissionError(f"[Errno 13] Permission denied: '{file_path}'")

        with self.assertRaises(PermissionError):
            read(file_path="/root/secret")
        fin = run.finish("claims success")
        self.assertEqual(fin["finishes"][0]["status"], "rejected")
        self.assertRegex(fin["finishes"][0]["decision"]["reason"], r"failed")

    def test_5_pending_calls_wait_for_a_person(self) -> None:
        run = self.fl.runs.create(name="Python hold", objective="Fetch a page", rules=[{"id": "hold-curl", "effect": "hold", "tool": "Bash", "binary": "curl", "reason": "network calls are read first"}])
        held = run.propose("h1", "Bash", {"command": "curl -s https://example.com"})
        self.assertEqual(held["status"], "pending")
        self.assertEqual(held["decision"]["pendingReason"], "POLICY_HOLD")
        with self.assertRaises(WaitTimeout) as w:
            run.wait(held["id"], timeout=1)
        self.assertEqual(w.exception.last["status"], "pending")
        # A person approves while the agent long-polls.
        pending_ids["h1"] = held["id"]
        t = decide_later(self.fl, run, "h1", "approve", "fine")
        decided = run.wait(held["id"], timeout=30)
        t.join(10)
        self.assertEqual(decided["status"], "approved")
        self.assertEqual(decided["decision"]["decision"], "approved")
        run.report("h1", ok=True, data={"stdout": "<html>"})

        # The decorator waits the same way, and a person's rejection (with its note) is a Rejected.
        ran: List[str] = []

        @run.governed("Bash")
        def bash(command: str) -> str:
            ran.append(command)
            return "ok"

        proposed = run.propose  # find the proposal id the decorator creates: watch propose

        def spy(call_id: str, tool: str, args: Any = None, agent: Any = None) -> Dict[str, Any]:
            p = proposed(call_id, tool, args, agent)
            pending_ids["deco"] = p["id"]
            return p

        run.propose = spy  # type: ignore[method-assign]
        t = decide_later(self.fl, run, "deco", "reject", "not this host", delay=1.0)
        with self.assertRaises(Rejected) as r:
            bash(command="curl -s https://internal.example")
        t.join(10)
        self.assertEqual(ran, [])
        self.assertIn("not this host", str(r.exception.reason))


if __name__ == "__main__":
    unittest.main(verbosity=2)
