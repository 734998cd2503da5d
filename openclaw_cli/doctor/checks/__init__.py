"""The registered doctor checks, one per module (see `openclaw_cli.doctor.registry`); helpers: doctor/support/."""
