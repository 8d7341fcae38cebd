"""A table's own page (CONTRACT §3): what its printed QR code opens, without an account.

A phone acts for a seat only once it has proved it — that seat's code, typed, or the seat's
own QR code on the slip cut from the round sheet — and holds one seat at a time. The table
then records its hands or its final scores as that seat; a finished game waits for a
different seat's code typed on a different phone (confirm, or dispute for the organizer).

Wrong guesses are counted per client (services/throttle.py): a valid table link opens
whatever anyone else has tried, and a phone is stopped only by its own wrong codes (or its
address's, many phones' worth).

code.py: /t/, the code typed; page.py: /t/<token>/, the page and a seat's slip; actions.py:
each button of the page, chosen by the `do` field it posts; phone.py, forms.py: what they share;
app.py: the manifest and service worker that let the page open, and keep hands, offline."""
