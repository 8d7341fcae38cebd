"""The one error the engine raises: it names the field that is wrong and says why."""

from __future__ import annotations


class ScoringError(ValueError):
    """Bad input. `field` is a path into the input document (`result.wins[0].fu`)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
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
        return ScoringError(field, self.message)
