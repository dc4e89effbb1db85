"""Setting a tournament up: the tournament itself, teams and rosters, the schedule, CSV imports."""
