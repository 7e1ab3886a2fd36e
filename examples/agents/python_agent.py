#!/usr/bin/env python3
"""A small agent governed by Faultline through the Python client (standard library only).

It creates a run that may only run ``echo`` and ``ls``, runs ``echo`` for real through a governed
shell function, tries ``rm -rf /`` through the same function (Faultline rejects it, so it never
runs), finishes, and prints the run's final status.

    FAULTLINE_URL=http://localhost:3000 FAULTLINE_TOKEN=flt_… python3 examples/agents/python_agent.py

Exit code 0 when the run behaves as expected: echo approved and run, rm rejected, run SUCCESS.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

try:
    from faultline import Faultline, Rejected
except ImportError:  # not installed: use the client from this repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
    from faultline import Faultline, Rejected


def main() -> int:
    fl = Faultline(os.environ.get("FAULTLINE_URL", "http://localhost:3000"), os.environ.get("FAULTLINE_TOKEN"))
    run = fl.runs.create(name="Python agent", objective="Say hello, and do not wipe the disk", allowedBinaries=["echo", "ls"], via="python-example")
    print(f"run {run.id} created ({run.data.get('runState')})")

    @run.governed("shell")
    def shell(command: str, args: List[str]) -> Dict[str, object]:
        """Runs a binary for real, only once Faultline approved it."""
        done = subprocess.run([command, *args], capture_output=True, text=True, check=True)
        return {"stdout": done.stdout, "exitCode": done.returncode}

    out = shell(command="echo", args=["hello from python"])
    print(f"echo approved and ran: {out['stdout'].strip()}")

    rejected = False
    try:
        shell(command="rm", args=["-rf", "/"])
        print("rm -rf / was approved: this must not happen")
    except Rejected as r:
        rejected = True
        print(f"rm -rf / rejected: {r.failure_reason} by {r.authority}: {r.reason}")
        if r.counterfactual:
            print(f"  what would change it: {r.counterfactual}")

    finish = run.finish("Said hello; refused to wipe the disk.")
    print(f"finish {finish['finishes'][0]['status']}")
    final = run.wait_until_done(timeout=60)
    print(f"final status: {final['finalStatus']}")
    return 0 if rejected and final["finalStatus"] == "SUCCESS" else 1


if __name__ == "__main__":
    sys.exit(main())
