"""Shell integration generated from the CLI definition: completion scripts and man pages."""
