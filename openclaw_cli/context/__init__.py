"""`openclaw context`: what fills a session's context window, read from disk or a running Gateway."""
