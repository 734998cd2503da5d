"""The typer layer: parse the arguments and hand them to commands/; docsgen/ writes completions and man pages."""
