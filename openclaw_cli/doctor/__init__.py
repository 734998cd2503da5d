"""`openclaw doctor`: a registry of small on-disk checks, repairs, lint and rendering."""
