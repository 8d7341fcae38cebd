"""mjlog XML (what tenhou.net saves and `?log=` downloads serve), read element by element."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import unquote

from scoring.knobs import SCORE_STEP
from scoring.messages import fail
from scoring.tenhou.records import (
    GO_HANCHAN,
    GO_SANMA,
    HandRead,
    TenhouLog,
    in_hand,
    log_int,
    log_ints,
    log_seat,
)


def read_mjlog(text: str) -> TenhouLog:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # no real log has one; refuse entity tricks
        raise fail("log.format", "log")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise fail("log.xml", "log", line=line, column=column) from None
    if root.tag != "mjloggm":
        raise fail("log.format", "log")
    players = 4
    east_south = True
    names: list[str] | None = None
    log: TenhouLog | None = None
    current: HandRead | None = None
    for el in root:
        a = el.attrib
        if el.tag == "GO":
            flags = log_int(a.get("type", "0"), "GO.type")
            players = 3 if flags & GO_SANMA else 4
            east_south = bool(flags & GO_HANCHAN)
        elif el.tag == "UN" and names is None and "n0" in a:
            names = [unquote(a.get(f"n{i}", "")).strip() for i in range(players)]
            log = TenhouLog(names, east_south)
        elif el.tag == "INIT":
            if log is None:
                raise fail("log.no_players", "log")
            if current is not None:  # a ron's hand closes when the next one starts
                if current.result is None:
                    raise fail("log.truncated", "log", hand=current.label)
                log.hands.append(current.done())
            seed = log_ints(a.get("seed", ""), "INIT.seed")
            before = [v * SCORE_STEP for v in log_ints(a.get("ten", ""), "INIT.ten")][:players]
            if len(seed) < 3 or len(before) != players:
                raise fail("log.garbled", "log", where="INIT")
            current = HandRead(
                seed[0], seed[1], seed[2] * 1000, log_int(a.get("oya", ""), "oya"), before
            )
        elif el.tag == "REACH" and a.get("step") == "2":
            in_hand(current).riichi.append(log_seat(a.get("who"), players))
        elif el.tag == "AGARI":
            hand = in_hand(current)
            hand.win(a, players)
            hand.final(a, players, log)  # a double ron's second win may still follow
        elif el.tag == "RYUUKYOKU":
            hand = in_hand(current)
            hand.draw(a, players)
            hand.final(a, players, log)
            assert log is not None
            log.hands.append(hand.done())
            current = None
    if log is None:
        raise fail("log.no_players", "log")
    if current is not None:
        if current.result is None:
            raise fail("log.truncated", "log", hand=current.label)
        log.hands.append(current.done())
    if not log.hands:
        raise fail("log.no_hands", "log")
    if not log.final_scores:
        raise fail("log.truncated", "log", hand=log.hands[-1].label)
    return log
