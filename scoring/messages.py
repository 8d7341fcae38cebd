"""Every error the engine can raise, by code: the English the command line prints.

An error is raised as `fail(code, field, **params)`. The English here is what `python -m scoring`
prints (CONTRACT §1); the web app looks the same template up in its translations and fills in
the same params, so a Japanese organizer reads Japanese. A param that is a seat is a `Seat`:
"seat 2" here, the wind and name the table sees ("北 鈴木") in the app.

Templates are `str.format` strings. `gettext_noop` only marks them for Django's
`makemessages` (which reads every folder); the engine never imports Django.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import ScoringError


def gettext_noop(text: str) -> str:
    return text


MESSAGES: dict[str, str] = {
    # --- reading a document (any field) ---
    "json.invalid": gettext_noop("not valid JSON ({reason} at line {line} column {column})"),
    "json.deep": gettext_noop("nested too deeply to be an event or a game"),
    "value.object": gettext_noop("must be a JSON object"),
    "value.unknown_key": gettext_noop("unknown key (known: {known})"),
    "value.required": gettext_noop("is required"),
    "value.number": gettext_noop("must be a number, not {value!r}"),
    "value.int": gettext_noop("must be a whole number, not {value!r}"),
    "value.whole": gettext_noop("must be a whole number"),
    "value.whole_nonneg": gettext_noop("must be a whole number ≥ 0"),
    "value.nonneg": gettext_noop("must be a number ≥ 0"),
    "value.positive": gettext_noop("must be a number above 0"),
    "value.min": gettext_noop("must be at least {low}"),
    "value.max": gettext_noop("must be at most {high}"),
    "value.step": gettext_noop("must be a multiple of {step}"),
    "value.bool": gettext_noop("must be true or false"),
    "value.text": gettext_noop("must be a text"),
    "value.nonempty_text": gettext_noop("must be a non-empty text"),
    "value.choice": gettext_noop("{value!r} is not one of {choices}"),
    "value.list": gettext_noop("must be a list"),
    "value.date": gettext_noop("must be a date as YYYY-MM-DD, not {value!r}"),
    "seat.list": gettext_noop("must be a list of seats"),
    "seat.unknown": gettext_noop("unknown seat {value!r}: seats are 0–{last}"),
    "seat.twice": gettext_noop("{seat} is listed twice"),
    # --- names ---
    "name.player_empty": gettext_noop("must be a player's name"),
    "name.event_empty": gettext_noop("must be an event's name"),
    "name.control": gettext_noop("contains the control character {char}; remove it"),
    "name.invisible": gettext_noop("has only invisible characters: type a name people can read"),
    "name.long": gettext_noop("is {length} characters long; the most is {max}"),
    "name.twice_at_table": gettext_noop("{name} sits at this table twice"),
    # --- a table and its players ---
    "players.count": gettext_noop("{venue} plays {counts} players, not {players}"),
    "players.unplayed": gettext_noop("{venue} does not play {players} players"),
    "scores.per_seat": gettext_noop("needs one score per seat ({players})"),
    "players.unknown": gettext_noop("{name!r} is not among the players"),
    "game.both": gettext_noop("a game gives either its hands or its final scores, not both"),
    "game.no_result": gettext_noop("a game needs its final scores or its hands"),
    # --- final scores ---
    "score.step": gettext_noop("{value} is not a multiple of {step}"),
    "scores.sum": gettext_noop(
        "sum to {total}; with {deposits} in deposits they must make {expected} "
        "({players} × {start})"
    ),
    "bust.none": gettext_noop("{venue} has no bust"),
    "bust.not_below_zero": gettext_noop("{seat} ended with {score}; a bust is below 0"),
    "bust.not_zero_or_below": gettext_noop("{seat} ended with {score}; a bust is 0 or below"),
    "bust.self": gettext_noop("a player cannot bust themselves"),
    "yakuman.own_discard": gettext_noop("the winner cannot deal into their own win"),
    "yakuman.tsumo_from": gettext_noop("a tsumo has no discarder"),
    # --- one hand ---
    "riichi.none": gettext_noop("{venue} has no riichi sticks; leave riichi out"),
    "riichi.noten": gettext_noop(
        "{seat} declared riichi and must be tenpai (a noten riichi is a chombo)"
    ),
    "riichi.min_score": gettext_noop("{seat} has {score} points; a riichi needs {needed}"),
    "penalty.none": gettext_noop("{venue} has no 罰符 into deposits"),
    "ron.no_winner": gettext_noop("needs at least one winner"),
    "ron.own_discard": gettext_noop("the discarder cannot win on their own discard"),
    "ron.atamahane": gettext_noop(
        "atamahane (頭ハネ): only one ron winner — {seat}, nearest the discarder, takes it"
    ),
    "ron.sanchahou": gettext_noop(
        "at most {max} ron winners; a third makes it 三家和 — record an abortive draw (sanchahou)"
    ),
    "ron.too_many": gettext_noop("at most {max} ron winners under {venue}"),
    "nagashi.none": gettext_noop("nagashi is not played under {venue}"),
    "nagashi.no_winner": gettext_noop("needs at least one seat"),
    "abort.not_allowed": gettext_noop(
        "{reason} is not an abortive draw under {venue} (allowed: {allowed})"
    ),
    "win.yakuman_and_han": gettext_noop("give either yakuman or han/fu, not both"),
    "yakuman.whole": gettext_noop("must be a whole number from {low} to {high}"),
    "yakuman.half": gettext_noop("must be a multiple of 0.5 from {low} to {high}"),
    "pao.self": gettext_noop("the winner cannot be responsible for their own win"),
    "pao.needs_yakuman": gettext_noop("needs a pao seat and a yakuman"),
    "pao.too_many": gettext_noop("covers more than the {count} yakuman won"),
    "pao.ron": gettext_noop(
        "pao on a ron needs a yakuman (a responsibility payment is a tsumo with a pao seat)"
    ),
    "fu.none": gettext_noop("{venue} counts every hand as 30 fu; leave fu out"),
    "fu.required": gettext_noop("fu are required below {han} han"),
    "fu.invalid": gettext_noop("{value!r} is not a fu count: 20, 25, or 30–110 in tens"),
    "fu.25_han": gettext_noop("25 fu needs at least 2 han (chiitoitsu)"),
    "fu.20_ron": gettext_noop("20 fu is only a tsumo (pinfu tsumo); a ron has at least 30 fu"),
    "fu.20_han": gettext_noop("20 fu needs at least 2 han (pinfu tsumo)"),
    # --- the game's flow ---
    "game.over": gettext_noop("the game is already over (after {last}): no more hands"),
    "stop.emperor": gettext_noop("the emperor game has no アガリ止め"),
    "stop.chombo": gettext_noop("a chombo hand is replayed; the dealer cannot stop"),
    "stop.never": gettext_noop("{venue} has no アガリ止め: the dealer plays on"),
    "stop.not_won": gettext_noop("only a dealer who has just won may stop (アガリ止め)"),
    "stop.not_last": gettext_noop("the dealer may stop only at the last hand, not {hand}"),
    "stop.not_top": gettext_noop("the dealer may stop only when the win made them top"),
    # --- the emperor card game ---
    "emperor.own_discard": gettext_noop("the winner cannot ron their own discard"),
    "emperor.sansou": gettext_noop("三双 has no yaku (無役): yaku must be 0"),
    "emperor.special_tsumo": gettext_noop("{special} is a tsumo"),
    "emperor.special_calls": gettext_noop("{special} has no calls"),
    "emperor.min_yaku": gettext_noop(
        "{yaku} yaku is below the minimum (縛り) of {needed} for {players} players"
    ),
    "emperor.min_yaku_calls": gettext_noop(
        "{yaku} yaku is below the minimum (縛り) of {needed} for {players} players "
        "with {calls} call(s)"
    ),
    "emperor.tenhou": gettext_noop("天和 is the dealer's win; {dealer} deals"),
    "emperor.chiihou": gettext_noop("地和 is a non-dealer's win; the dealer's is 天和"),
    # --- seating and standings ---
    "seating.method": gettext_noop("unknown seating {method!r} (known: {known})"),
    "seating.size": gettext_noop("a table needs at least two players"),
    "seating.fill": gettext_noop("{players} players do not fill tables of {size}: add byes first"),
    "seating.twice": gettext_noop("a player is listed twice"),
    "plan.size": gettext_noop("a table seats {sizes} players"),
    "team.name": gettext_noop("a team needs a name"),
    "team.empty": gettext_noop("team {team} has no members"),
    "team.unknown": gettext_noop("team {team}: {player} is not a player of this event"),
    "team.twice": gettext_noop("{player} is in team {first} and in team {team}"),
    "team.rule": gettext_noop("unknown team rule {rule!r} (known: {known})"),
    "team.best": gettext_noop("the best-members rule needs how many members count (1 or more)"),
    "plan.players": gettext_noop("a plan needs from {size} to {most} players"),
    "plan.rounds": gettext_noop("a plan has from 1 to {most} rounds"),
    "standings.format": gettext_noop("unknown format {value!r} (known: {known})"),
    "standings.shape": gettext_noop("players, ranks, points and chips must be one per seat"),
    "standings.twice": gettext_noop("{player} plays round {round} twice"),
    # --- a ruleset written in an event file ---
    "rules.spec": gettext_noop("must be a preset slug or an object with a preset and knobs"),
    "rules.preset_unknown": gettext_noop("unknown preset {value!r} (known: {known})"),
    "rules.preset": gettext_noop("must be one of {known}"),
    "rules.knob": gettext_noop("unknown knob"),
    "rules.shape": gettext_noop("a knob has the wrong shape: {reason}"),
    "rules.payment_row": gettext_noop(
        "must be an object with han, ron, tsumo, dealer_ron, dealer_tsumo"
    ),
    "rules.payment_tsumo": gettext_noop("must be [from each non-dealer, from the dealer]"),
    "rules.rows": gettext_noop("must be a list of rows"),
    "rules.ints": gettext_noop("must be a list of whole numbers"),
    "rules.names": gettext_noop("must be a list of names (known: {known})"),
    "rules.key_int": gettext_noop("key {key!r} must be a whole number"),
    "rules.table_map": gettext_noop("must be an object {{players: [points by rank]}} or a list"),
    "rules.rank_list": gettext_noop("must be a list of numbers, one per rank"),
    "rules.str_map": gettext_noop("must be an object of names to words"),
    "rules.int_map": gettext_noop("must be an object {{players: whole number}}"),
    "rules.limits": gettext_noop("must be a list of [han, basic points] rows"),
    "rules.limit_row": gettext_noop("must be [han, basic points]"),
    "rules.player_counts": gettext_noop("each must be one of {counts} for {game}"),
    "rules.players": gettext_noop("{players} is not among player_counts"),
    "rules.return_points": gettext_noop("must be at least the start points (oka ≥ 0)"),
    "rules.uma_size": gettext_noop("is not among player_counts"),
    "rules.uma_floating": gettext_noop("needs a single table size"),
    "rules.floaters": gettext_noop("must be 0–{players} floaters"),
    "rules.uma_length": gettext_noop("needs {players} values, one per rank"),
    "rules.uma_sum": gettext_noop("must sum to 0 (sums to {total})"),
    "rules.honba_split": gettext_noop(
        "must split evenly among {payers} tsumo payers in 50s (a multiple of {multiple})"
    ),
    "rules.noten_split": gettext_noop("must split among {players} players in {step}s"),
    "rules.noten_even": gettext_noop("must split evenly ({split} divides it)"),
    "rules.limits_rise": gettext_noop("han and basic points must both rise row by row"),
    "rules.kazoe": gettext_noop("must be above the last limit row"),
    "rules.table_yakuman_alone": gettext_noop("needs a payment_table"),
    "rules.mangan_limit": gettext_noop("must be the han of the first limit row"),
    "rules.table_rows": gettext_noop("rows must start at 1 han, rising"),
    "rules.table_yakuman": gettext_noop("a payment table needs its yakuman row"),
    "rules.table_fu": gettext_noop("a fixed payment table counts no fu: set fu to false"),
    "rules.mangan_row": gettext_noop("must be the han of a payment_table row"),
    "rules.max_ron": gettext_noop("more winners than players besides the discarder"),
    "rules.sanchahou": gettext_noop(
        "三家和 needs max_ron_winners 2 (a double ron, and a third ron ends the hand); "
        "it is {winners} here"
    ),
    "yakuman.most": gettext_noop("this venue counts at most {most} yakuman in one hand"),
    "rules.abort_unknown": gettext_noop("unknown (known: {known})"),
    "rules.abort_rule": gettext_noop("must be repeat, pass or draw"),
    "rules.chombo_amount": gettext_noop("a fixed chombo needs an amount above 0"),
    "rules.winds": gettext_noop("a game has at most four winds"),
    "rules.renchan_wind": gettext_noop("must be one of E, S, W, N"),
    "rules.renchan_rule": gettext_noop("must be tenpai, always or never"),
    "rules.emperor_missing": gettext_noop("needs a value for {players} players"),
    "rules.hands_per_game": gettext_noop("only the emperor game counts hands"),
    # --- conditions at the last hand (CONTRACT §6) ---
    "conditions.unranked": gettext_noop("{player} is not in the standings"),
    "conditions.target": gettext_noop(
        "rank {target} is beyond the field: the standings rank {ranked} players"
    ),
    "conditions.twice": gettext_noop("{name} is in the standings twice"),
    "conditions.no_standings": gettext_noop("needs every ranked player's total"),
    # --- series (seasons) ---
    "series.best_of": gettext_noop("give how many events count (1 or more) for a best-of rule"),
    # --- Tenhou game logs ---
    "log.large": gettext_noop("is larger than {limit} kB: not a single game's log"),
    "log.format": gettext_noop("is not a Tenhou game log (mjlog XML or tenhou.net/6 JSON)"),
    "log.xml": gettext_noop("is not well-formed XML (line {line}, column {column})"),
    "log.json": gettext_noop("is not valid JSON (line {line}, column {column})"),
    "log.garbled": gettext_noop("is garbled at {where}"),
    "log.no_players": gettext_noop("names no players"),
    "log.no_hands": gettext_noop("records no hands"),
    "log.truncated": gettext_noop("stops after {hand} before the game ends (truncated?)"),
    "log.draw_kind": gettext_noop("{hand}: unknown kind of draw {kind!r}"),
    "log.after_end": gettext_noop("{hand} comes after the game is over under this ruleset"),
    "log.differs": gettext_noop("{hand}: the log records {what} {log}, the ruleset gives {ours}"),
    "log.refused": gettext_noop("{hand}: the ruleset refuses this hand ({reason})"),
    "log.double_yakuman": gettext_noop(
        "{hand}: the log pays {yaku} as {log} yakuman, the ruleset counts {ours} "
        "(its double_yakuman: {double})"
    ),
    "log.not_over": gettext_noop(
        "the log ends after {hand}, but under this ruleset the game goes on"
    ),
    "log.final": gettext_noop("the log's final {what} are {log}, the ruleset gives {ours}"),
    "log.final_whole": gettext_noop(
        "the log's final points are whole numbers ({log}), the ruleset gives tenths ({ours}): "
        "a log from the years Tenhou printed whole points replays with the ruleset's rounding "
        'half_up (in the event file: "rounding": "half_up")'
    ),
    "log.final_tenths": gettext_noop(
        "the log's final points are in tenths ({log}), the ruleset gives whole numbers ({ours}): "
        "a log Tenhou printed to the tenth replays with the ruleset's rounding exact (in the "
        'event file: "rounding": "exact")'
    ),
    "log.east_only": gettext_noop(
        "the log ends after {hand}, but under this ruleset the game goes on: the log is an "
        "East-only game (東風戦) and the ruleset plays East-South — an East-only game replays "
        'with the ruleset\'s winds 1 (in the event file: "winds": 1)'
    ),
    "log.east_south": gettext_noop(
        "{hand} comes after the game is over under this ruleset: the log is an East-South game "
        "(東南戦) and the ruleset plays East only — an East-South game replays with the "
        'ruleset\'s winds 2 (in the event file: "winds": 2)'
    ),
}


def fail(code: str, field: str, **params: Any) -> ScoringError:
    """The error for `code` at `field`, its English filled in from `params` (raise it)."""
    return ScoringError(field, MESSAGES[code].format(**params), code=code, params=params)
