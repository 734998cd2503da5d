"""What the doctor checks share: file helpers, legacy rules, plugin and secret tables."""
