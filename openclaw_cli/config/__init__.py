"""OpenClaw's config: state paths, `openclaw.json` loading, agents, units."""
