"""All limits and switches of a run, in one validated object."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Settings(BaseModel):
    """Limits and behaviour switches for one engine run.

    Every limit that can stop a run lives here, so that an error raised by a limit can quote it.
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    max_iterations: int = Field(10, ge=1, le=200, description="planner turns before stopping with tool_limit")
    timeout_seconds: float = Field(300.0, gt=0, description="whole-run time limit (time_limit)")
    tool_timeout_seconds: float = Field(60.0, gt=0, description="a single tool call past this is abandoned (on a "
                                        "Dask cluster only the run limit applies)")
    max_prompt_tokens: int = Field(1000, ge=200, description="budget for the curated prompt (estimated)")
    history_window: int = Field(5, ge=1, le=20, description="recent actions shown in the prompt")
    sample_lines: int = Field(3, ge=0, le=10, description="sample rows shown in the prompt")
    sample_chars: int = Field(200, ge=40, description="a sample line is cut to this many characters")
    evidence_lines: int = Field(3, ge=0, le=20, description="supporting lines attached to the answer")
    max_json_parse_retries: int = Field(3, ge=1, description="consecutive invalid replies before stopping")
    max_tool_failures: int = Field(3, ge=1, description="consecutive failures after which a tool is disabled")
    auto_retry_enabled: bool = Field(True, description="suggest alternatives after empty results")
    intent_detection_enabled: bool = Field(True, description="nudge replies that state an intent but do not act")
    max_retry_attempts: int = Field(3, ge=0, description="nudges against giving up before an empty answer stands")
    time_expansion_factor: float = Field(4.0, gt=1, description="how much an empty time window is widened")
    max_question_chars: int = Field(4000, ge=1, description="a longer question is refused before anything runs")
    max_answer_chars: int = Field(4000, ge=40, description="a longer final answer is cut to this, with a warning")
