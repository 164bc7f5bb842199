"""Investigation questions over the 16 loghub samples (the kinds of messages, the kinds of errors or warnings, what
happened to an entity), with expected values from loghub's structured CSVs: the largest `EventTemplate` group's
count, and the number of raw lines naming the entity; never from react-engine.

A patterns answer must state the largest group's count and call `message_patterns`; a timeline answer's value is
the number of lines naming the entity.
"""

from __future__ import annotations

from collections.abc import Callable

from operator_data import LogData, Questions, count

SUMMARIES = ("summarize the log", "what kinds of messages are in this log?", "give me a summary of this log",
             "what kinds of lines does this log have?")
LEVELS = {  # the level a question names, as loghub's Level column writes it
    "Android": [("warning", "W")], "Apache": [("error", "error")], "BGL": [("fatal", "FATAL"), ("error", "ERROR")],
    "HDFS": [("warning", "WARN")], "Hadoop": [("warning", "WARN"), ("error", "ERROR")],
    "OpenStack": [("warning", "WARNING")], "Zookeeper": [("warning", "WARN"), ("error", "ERROR")],
}
ENTITIES = {  # an entity of each log, named as the question names it
    "HDFS": "blk_-8775602795571523802", "OpenSSH": "183.62.140.253", "Linux": "218.188.2.4",
    "Zookeeper": "0x14f05578bd80013", "Proxifier": "proxy.cse.cuhk.edu.hk", "Spark": "broadcast_9",
    "Hadoop": "attempt_1445144423722_0020_m_000002_0", "OpenStack": "bf8c824d-f099-4433-a41e-e3da7578262e",
    "Thunderbird": "dn228", "BGL": "R02-M1-N0-C:J12-U11",
}


def _largest(log: LogData, mask: object = None) -> int:
    templates = log.col("EventTemplate") if mask is None else log.col("EventTemplate")[mask]
    return int(templates.value_counts().iloc[0])


def investigate(system: str) -> Callable[[LogData, Questions], None]:
    """The investigation questions of one loghub system."""

    def questions(log: LogData, q: Questions) -> None:
        index = sorted(LEVELS).index(system) if system in LEVELS else len(system)
        q.patterns("summary", "investigation", SUMMARIES[index % len(SUMMARIES)], _largest(log))
        q.patterns("message-patterns", "investigation", "what are the message patterns in this log?", _largest(log))
        for word, written in LEVELS.get(system, []):
            q.patterns(f"kinds-of-{word}s", "investigation", f"what kinds of {word}s are there?",
                       _largest(log, log.or_worse(written) if word == "error" else log.level(written)))
        if system in ENTITIES:
            entity = ENTITIES[system]
            q.count(f"timeline-{entity.lower()[:24]}", "investigation", f"what happened to {entity}?",
                    count(log.grep(entity)))

    return questions


INVESTIGATE: dict[str, Callable[[LogData, Questions], None]] = {
    system: investigate(system) for system in (
        "Android", "Apache", "BGL", "HDFS", "HPC", "Hadoop", "HealthApp", "Linux", "Mac", "OpenSSH", "OpenStack",
        "Proxifier", "Spark", "Thunderbird", "Windows", "Zookeeper")
}
