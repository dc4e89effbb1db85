"""The application layer and the only writer (DESIGN.md "Layers")."""
