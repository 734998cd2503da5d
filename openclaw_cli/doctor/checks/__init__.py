"""The doctor checks, one unit per module (see `openclaw_cli.doctor.registry`)."""
