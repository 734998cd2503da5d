"""Session-store maintenance: settings, the cleanup plan, and the step that applies it."""
