"""Building blocks of `openclaw sessions` (list): rows, kinds, models, runtimes, tokens, table."""
