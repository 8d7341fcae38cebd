"""The one error the engine raises: it names the field that is wrong and says why."""

from __future__ import annotations

from typing import Any


class ScoringError(ValueError):
    """Bad input. `field` is a path into the input document (`result.wins[0].fu`).
    `code` and `params`, where given, let a caller say the same in its reader's language
    (`name.control` with `{"char": "U+0007"}`); `message` is the English for everyone else."""

    def __init__(
        self, field: str, message: str, *, code: str = "", params: dict[str, Any] | None = None
    ) -> None:
        self.field = field
        self.message = message
        self.code = code
        self.params = params or {}
        super().__init__(f"{field}: {message}" if field else message)

    def within(self, prefix: str) -> ScoringError:
        """The same error, its field placed under `prefix` (`hands[3]` + `result.fu`)."""
        if not prefix:
            return self
        if not self.field:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        return ScoringError(field, self.message, code=self.code, params=self.params)


class Seat(int):
    """A seat number (0 = the first dealer) given to an error's message: "seat 2" in the English
    the command line prints; the web app shows the seat as the table sees it (北 鈴木)."""

    def __format__(self, spec: str) -> str:
        return f"seat {int(self)}"

    def __str__(self) -> str:
        return f"seat {int(self)}"

    def __repr__(self) -> str:
        return f"Seat({int(self)})"


class LogPart(str):
    """What of a game log disagrees with the replay (`scores`, `points`, …) given to an error's
    message: its English word on the command line; the web app says it in the reader's
    language (a Japanese page never shows the bare key "points")."""
