"""The application layer (DESIGN.md "Layers"): the only writer, and the read interfaces the
pit display uses."""
