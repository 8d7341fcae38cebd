"""Organizer forms: thin — they collect input, services and the scoring engine judge it."""
