"""The paintball game and its results: the live game, the chrono station, protocols, standings."""
