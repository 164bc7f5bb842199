"""Approval of tools with side effects: nothing is written unless the user said yes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable

from react_engine.loop.stops import Stop
from react_engine.loop.turn import Turn
from react_engine.tools import REGISTRY, Params, Tool

Ask = Callable[[str], bool]


class Approver:
    """Decides whether a tool that `requires_approval` may run.

    `approve_all` is `--yes`, `pre_approved` is `--approve TOOL`, `ask` asks the user (y/N) on a terminal.
    Without any of them every such call is denied. Approval to write is not approval to replace: an existing
    file is replaced only with `overwrite` (`--overwrite`), and a loaded log never.
    """

    def __init__(self, *, approve_all: bool = False, pre_approved: Iterable[str] = (), ask: Ask | None = None,
                 overwrite: bool = False):
        self.approve_all = approve_all
        self.pre_approved = set(pre_approved)
        self.ask = ask
        self.overwrite = overwrite

    def approve(self, tool: Tool, params: Params) -> bool:
        if self.approve_all or tool.name in self.pre_approved:
            return True
        if self.ask is None:
            return False
        shown = json.dumps(params.model_dump(mode="json"), ensure_ascii=False)
        return bool(self.ask(f"The planner wants to run {tool.name}({shown}). Allow?"))


DENY_ALL = Approver()


def consult(approver: Approver, tool: Tool, params: Params, step: Turn) -> tuple[bool, float]:
    """`approver`'s answer for this call and the seconds it took (which are not the run's: a person deciding);
    `(True, 0)` for a tool that needs no approval. An approver may end the run instead (`Stop`: no answer in
    time, the run cancelled); `step` then says so."""
    if not tool.requires_approval:
        return True, 0.0
    asked = time.monotonic()
    try:
        return approver.approve(tool, params), time.monotonic() - asked
    except Stop as stop:
        step.stop(stop.message)
        raise


def approvable(tools: dict[str, Tool] | None = None) -> list[str]:
    """The names of the tools that need approval (of the registered tools unless `tools` is given)."""
    return sorted(name for name, tool in (tools if tools is not None else REGISTRY).items() if tool.requires_approval)
