"""Domain errors raised by services; views and commands show them next to the field."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str, field: str = "") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class ConflictError(ServiceError):
    """Someone else saved the same game since this one was loaded (optimistic locking)."""
