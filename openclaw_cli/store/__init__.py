"""The session store: sessions.json load/save, entry normalisation, keys, session files."""
