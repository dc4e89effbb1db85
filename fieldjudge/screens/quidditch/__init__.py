"""Forum quidditch: matches, rosters and settings, the round screen and its post."""
