"""The chrono station: the marker check before a game, the in-game chrono, the device feed."""
