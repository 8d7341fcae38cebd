"""HTTP caching, the one cache outside the selectors (issue 65): ETags and 304s from the
versions a page or an API answer shows (`conditional`), and an anonymous reader's page kept
whole by its tag (`whole_pages`). Its own package so the views and the API both import it,
and neither imports the other."""
