"""The typer layer: parse arguments, choose local or Gateway, render."""
