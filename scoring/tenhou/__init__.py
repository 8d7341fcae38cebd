"""Tenhou game logs read into the engine's own terms, and checked against it.

A log comes as mjlog XML (what tenhou.net saves and `?log=` downloads serve) or as the JSON of
tenhou.net/6's viewer. `read_log` turns either into a `TenhouLog`: the players in seat order
(seat 0 the starting dealer), each hand as CONTRACT §1 `hand` JSON (riichi and result), and what
the log itself recorded — each hand's label, dealer, honba, deposits and score changes, the final
scores and points. `check_log` plays the hands through a ruleset and names the first hand where
the engine and the log part ways, so a log imported into an event is one the engine agrees with.

The reader takes only what the engine needs (who won from whom with how many han and fu, who was
tenpai, who declared riichi); the tiles themselves are not read.
"""

from __future__ import annotations

from scoring.messages import fail
from scoring.tenhou.check import check_log
from scoring.tenhou.json6 import read_json
from scoring.tenhou.mjlog import read_mjlog
from scoring.tenhou.records import MAX_LOG_BYTES, LogHand, TenhouLog

__all__ = ["MAX_LOG_BYTES", "LogHand", "TenhouLog", "check_log", "read_log"]


def read_log(raw: bytes | str) -> TenhouLog:
    """A Tenhou log from its bytes: mjlog XML or tenhou.net/6 JSON. Raises ScoringError
    (field `log`) for anything that is not a whole, well-formed game."""
    if len(raw) > MAX_LOG_BYTES:
        raise fail("log.large", "log", limit=MAX_LOG_BYTES // 1000)
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    text = text.lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        return read_json(text)
    if text.startswith("<"):
        return read_mjlog(text)
    raise fail("log.format", "log")
