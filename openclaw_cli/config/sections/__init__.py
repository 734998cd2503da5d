"""OpenClaw's config schema, one module per section: each is imported (and its models built) only
when a config has that section (config/models.py defers to them)."""
