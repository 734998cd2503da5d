"""One module per user command: the request checked, run here or by a running Gateway, the result printed."""
