"""Every rule message's id, the section it cites and its English template (the data that
``rule(id, **params)`` and ``phrase(id, **params)`` of ``rules/messages.py`` build from), and
the elimination reasons of ``paintball/reasons.py``. The template is the gettext message id
and the section its context: their Russian is in ``locale/<lang>/LC_MESSAGES/fieldjudge.po``,
which a translator edits, never this file.

A section of ``None`` is chosen at run time (``rule(id, section, ...)``): the catalog files
the template without context. The decisions are in the engines (``paintball/checks.py``,
``chrono.py``, ``state.py``, ``scoring.py``, ``marker_check.py``, ``protocol.py`` ...)."""

from __future__ import annotations

#: messages citing a rulebook section: id -> (section, English template); "" cites none
RULES: dict[str, tuple[str | None, str]] = {
    # --- paintball: chrono verdicts (20), the fold's notes (state.py), scoring (30, 32)
    "chrono_disqualified": (
        "20.05",
        "{why} (minimum {minimum} ms): removal, disqualification for the tournament and "
        "a team penalty of section 11",
    ),
    "chrono_no_reading": ("20.02", "no reading, no penalty"),
    "chrono_ok": ("20.02", "{fps:g} fps, no penalty"),
    "chrono_over_limit": ("20.03", "{fps:g} fps is over {limit:g} fps: player removed"),
    "chrono_group": ("20.04", "{fps:g} fps is over {limit:g} fps: group removal 1+1"),
    "malformed_event": ("", "malformed event: {error}"),
    "could_not_apply": ("", "could not apply: {error}"),
    "hang_counted": ("23.03", "flag hang counted"),
    "carrier_hit": ("23.02", "the carrier is hit"),
    "carrier_over_limit": ("23.02", "the carrier's marker is over the limit"),  # unused now
    "flag_hang_points": ("30.01", "flag hang by {team}: {points}"),
    "both_hold": ("30.01", "both teams hold a flag; {team} captured first"),
    "flag_held_points": ("30.01", "flag held at the end by {team}: {points}"),
    "draw_points": ("30.01", "no flag held at the end: draw, {points} each"),
    "survivors": ("30.01", "survivors {a} {sa} : {sb} {b}, difference clamped to ±{clamp}"),
    "no_absent_team": ("32.01", "no absent team among {a}, {b}"),
    "both_absent": ("32.01", "both teams absent: 0 points each"),
    "no_show_by": ("32.02", "no-show by {out}: {present} gets {points} and +{diff}"),
    "only_team_in_play": (
        "23.03",
        "only {team} is in play: the game goes on, {team} may still capture and hang the flag",
    ),
    "inspection_points": (
        "18.02",
        "hit found on {player} at the inspection: {points} penalty point(s)",
    ),
    "inspection_points_total": (
        "18.02",
        "{team}: {points} penalty point(s) for hits found at the inspection, subtracted "
        "from the game points",
    ),
    "old_paint": ("29.10", "{player} reported old paint spots before the game: {spots}"),
    "carrier_paint_check": ("25.05", "{player} carries the flag: judges never stop a flag carrier"),
    "no_show_replayable": (
        "32.03",
        "no-show of {team} caused by the organisers: the head judge may have it replayed "
        "within the round",
    ),
    "chrono_above_dq": (
        "20.04",
        "{fps:g} fps is over {limit:g} fps: removal and disqualification (tournament "
        "setting){tail}",
    ),
    "chrono_above": ("20.04", "{fps:g} fps is over {limit:g} fps: {what}{tail}"),
    "chrono_disqualified_and_group": (
        "20.05",
        "{dq}; {fps:g} fps is over {limit:g} fps: group removal 1+1 as well (20.05 and 20.04)",
    ),
    "playing_on_penalty": (None, "{player} played on while eliminated: team penalty, {what}"),
    "hang_rejected_chrono": (None, "flag hang not counted: {verdict}"),
    # --- paintball refusals: the game phase, the roster, malformed data (checks.py)
    "unknown_event": ("", "unknown paintball event type {etype!r}"),
    "no_show_recorded": (
        "32.01",
        "this game was recorded as a no-show; nothing more can be logged",
    ),
    "no_show_after_start": (
        "32.01",
        "a no-show is ruled before the game starts; this game has been started",
    ),
    "before_game_only": (
        "19.01",
        "pre-game check-in, marker checks and the start happen before the game",
    ),
    "all_inspected": ("18.02", "every unhit player has been inspected already"),
    "inspection_after_end": ("18.02", "the post-game inspection starts when the game has ended"),
    "no_hang_pending": ("23.01", "no flag hang is awaiting a verdict"),
    "awaiting_hang": ("23.01", "awaiting the flag-hang verdict; players stay in their positions"),
    "not_started": ("19.01", "the game has not started"),
    "game_over": ("18.02", "the game is over; only the post-game inspection remains"),
    "time_called": ("23.01", '"Time!" was called: players freeze until the clock resumes'),
    "not_on_roster": (None, "{player} is not on the game roster"),
    "already_eliminated": (None, "{player} is already eliminated ({why})"),
    "not_admitted": ("19.06", "{player} was not admitted and is not on the field"),
    "neutral_player": (
        "25.03",
        "{player} is neutral and cannot be eliminated or act until the check ends",
    ),
    "team_not_playing": (None, "{team!r} does not play this game"),
    "one_player_penalty": (None, "this penalty removes one player; no second player is named"),
    "name_second": ("29.08", "group removal 1+1: name the second player of team {team}"),
    "second_is_offender": ("29.08", "the second player of a group removal must be another player"),
    "one_offender": ("29.08", "a group removal 1+1 names one offender"),
    "marker_result_values": ("19.06", "marker result must be admitted, not_admitted or no_marker"),
    "name_absent": ("32.01", "name the absent team(s)"),
    "clock_running": ("23.02", "the clock is already running"),
    "game_end_reason": (
        "30.01",
        "a game ends by the clock or by a judge's decision (reason clock | judge)",
    ),
    "clock_stopped": ("23.01", "the clock is stopped; it cannot run out"),
    "time_left": ("30.01", "the game time has not run out ({left} left)"),
    "unknown_reason": ("26", "unknown elimination reason {reason!r}"),
    "name_eliminated": (None, "name the eliminated player"),
    "two_at_once": ("26", "only two opponents hit at once are eliminated in one entry"),
    "player_by_team_number": (None, "a player is named by team and number"),
    "teammates_separately": (
        "26",
        "a simultaneous elimination names two opponents, log teammates separately",
    ),
    "disqualified": (
        "20.05",
        "{player} was disqualified for the rest of the tournament and cannot be put in play",
    ),
    "markers_down_before_start": (
        "20.07",
        'a marker not laid down on "Markers down" is recorded before the start only',
    ),
    "playing_on_section": (
        "28.02",
        "playing on while eliminated cites 27.02-27.05, 28.02 or 29.11, not {section!r}",
    ),
    "no_show_cause_values": ("32.03", "the cause of a no-show is team or organisers"),
    "replay_not_no_show": ("32.03", "this game is not a no-show"),
    "replay_team_cause": ("32.03", "a no-show caused by a team is not replayed"),
    "replay_head_judge": ("32.03", "only the head judge may have a game replayed"),
    "replay_round_over": ("32.03", "the round is over: the game can no longer be replayed"),
    "old_paint_text": ("29.10", "describe the old paint spot"),
    "inspection_points_value": ("18.02", "penalty points are a whole number from 0"),
    "shots_one_to_three": ("20.02", "the verdict is taken on 1 to 3 readings the judge chooses"),
    "not_in_lineup": (None, "{player} is not in this game's line-up (30.01)"),
    "lineup_numbers": ("30.01", "name the players of {team} who play this game"),
    "lineup_twice": ("30.01", "{player} is named twice in the line-up"),
    "lineup_too_large": ("30.01", "{team}: {count} players in the line-up, at most {size} play"),
    "lineup_needed": (
        "30.01",
        "{team} has {count} players on the roster, at most {size} play: confirm the line-up",
    ),
    "plays_itself": ("", "{team} cannot play itself"),
    "duplicate_numbers": ("", "{team}: two players share a shirt number"),
    "empty_roster": ("", "{team}: no players on the roster"),
    "fewer_players": (
        "30.01",
        "{team}: {count} players on the roster, fewer than {size}: the team plays with fewer",
    ),
    # --- paintball refusals: checks, chrono, flags, the inspection (24-25, 20, 22-23, 18.02)
    "check_outcome_values": (None, "the outcome is eliminated or in_play"),
    "already_paint_checked": ("24.02", "{player} is already being paint-checked"),
    "already_neutral": ("25.02", "{player} is already neutral"),
    "carrier_not_neutral": (
        "25.05",
        "{player} carries the flag and is never stopped or declared neutral",
    ),
    "without_marker": ("19.07", "{player} plays without a marker"),
    "reading_needs_fps": ("20.02", "the reading needs a speed in fps"),
    "no_flag": (None, "{player} does not carry a flag"),
    "already_carries": ("22.02", "{player} already carries a flag"),
    "flag_carried_by": ("22.03", "the flag of {owner} is carried by {holder}"),
    "flag_out_of_play": ("23.03", "the flag of {owner} is no longer in play"),
    "hand_to_another": ("22.03", "hand the flag to another player"),
    "taker_eliminated": ("22.03", "{player} is eliminated; only unhit players may take the flag"),
    "no_opponents_flag": ("23.01", "{player} does not carry the opponents' flag"),
    "paint_values": ("23.01", "the paint check result is clean or hit"),
    "hang_fps_number": ("23.01", "the chrono reading must be a speed in fps"),
    "hang_needs_chrono": ("23.01", "the marker of {player} must be chrono'd before the verdict"),
    "inspection_values": ("18.02", "the result is clean, hit_found or did_not_report"),
    "no_open_check": (None, "{player} has no open {what}"),
    "already_inspected": (
        "18.02",
        "{player} is already marked {result}; void that mark to change it",
    ),
    "only_unhit_inspected": ("18.02", "only unhit players are inspected; {player} is {status}"),
    # --- the pre-game marker check (19.03-19.05, 20.02)
    "slap_not_done": ("19.05", "slap test not done"),
    "slap_fired": ("19.05", "marker fired on the slap test"),
    "slap_passed": ("19.05", "slap test passed"),
    "no_velocity": ("19.05", "no velocity reading"),
    "velocity_over": ("19.05", "velocity {fps:g} fps is over {limit:g} fps"),
    "velocity_ok": ("19.05", "velocity {fps:g} fps"),
    "rof_not_timed": ("20.02", "fewer than two shots timed"),
    "rof_unknown": (
        "20.02",
        "interval not measured: readings came in a batch ({n} unknown) — repeat the string",
    ),
    "after_release_not_done": ("19.05", "after-release test not done"),
    "after_release_unknown": (
        "19.05",
        "shot times around the release not measured — press r and release again",
    ),
    "one_after_release": ("19.05", "1 shot {d} ms after release"),
    "none_after_release": ("19.05", "no shot after release"),
    "balls_limit_reached": (
        "19.05",
        "{used} balls used, the judges may use at most {limit}: the verdict is taken on "
        "the tests done",
    ),
    "acceptance_ok": ("19.03", "no foreign object, parts fixed, no tool-less adjuster"),
    "modes_forbidden": ("19.04", "the marker fires in a forbidden mode"),
    "modes_ok": ("19.04", "no forbidden mode"),
    "modes_not_done": ("19.04", "forbidden modes not checked"),
    "game_signed": (
        "31",
        "the protocol of this game is signed by both captains: nothing changes, its "
        "marker checks are closed",
    ),
    "team_not_checked_in": (
        "19.01",
        "{team} has not checked in at the chrono station: check the team in (i) before "
        "its markers are checked",
    ),
    "rof_interval": ("20.02", "shortest interval {gap} ms{under}{near}{also}"),
    "after_release_failed": ("19.05", "{problems}"),
    "acceptance_refused": ("19.03", "marker not accepted for the check: {items}"),
    "acceptance_pending": ("19.03", "not checked yet: {items}"),
    # --- the protocol (31, 32.03) and a correction against the rules (30.01)
    "locked": (
        "31",
        "the protocol is signed by both captains and locked; only the head judge can "
        "correct a wrong total",
    ),
    "submit_first": ("31", "the senior judge submits the protocol before the captains sign"),
    "protocol_team_not_playing": ("31", "{team!r} does not play this game"),
    "already_answered": ("31", "this team's captain has already signed or refused"),
    "name_to_sign": ("31", "the captain types his name to sign"),
    "refusal_reason": ("31", "the senior judge records the reason of the refusal"),
    "correct_before_answers": (
        "31",
        "until both captains have answered, the senior judge corrects the protocol and "
        "submits it again",
    ),
    "correction_reason": ("31", "a correction of the total needs a reason"),
    "correction_points": ("31", "the corrected total needs whole game points for both teams"),
    "correction_old_total": ("31", "the correction must name the old total"),
    "correction_outcome": (
        "30.01",
        "the outcome is a flag hang or a flag held by team 1 or 2, or a draw",
    ),
    "corrected": ("31", "total corrected by the head judge {judge}: {reason}"),
    "no_show_gap": (
        "32.03",
        "{team} finished its previous game at {ended}; it cannot be ruled a no-show "
        "before {allowed}",
    ),
    "finish_first": ("30.02", "points are awarded after the game: finish the game first"),
    "new_protocol_not_needed": ("31", "the captains have answered; a new protocol is not needed"),
    "correction_needs_pin": ("31", "only the head judge corrects a total, with his secret"),
    "no_show_needs_pin": ("32.01", "only the head judge rules a no-show, with his secret"),
    "decision_needs_pin": (
        "31",
        "only the head judge decides which copy of a game log stands, with his secret",
    ),
    "approval_needs_pin": (
        "19.05",
        "only the head judge approves a team's marker checks, with his secret",
    ),
    "void_locked_needs_pin": (
        "31",
        "only the head judge voids an event of a signed protocol, with his secret",
    ),
    "locked_void_target": (
        "31",
        "after the signatures the head judge voids a game event of this game, not yet "
        "voided; not a protocol step, a no-show or a correction",
    ),
    "locked_void_reason": ("31", "voiding an event of a signed protocol needs a reason"),
    "voided_by_head_judge": (
        "31",
        "event voided by the head judge {judge} after the signatures: {reason}",
    ),
    "locked_void_not_locked": (
        "31",
        "the protocol is not signed by both captains: void the event in the game",
    ),
    "locked_void_unfinished": (
        "31",
        "without this event the game would not be over: correct the total instead",
    ),
    "confirm_against_rules": (
        "30.01",
        "the corrected points contradict the points of the outcome recorded ({why}): the "
        "head judge confirms them",
    ),
    # --- quidditch
    "seed_revealed": (
        "0",
        "the server seed is revealed: the match is closed, no roll is possible with that "
        "seed; continuing needs a new match with a new committed seed",
    ),
    "match_ended": ("9", "the match has ended"),
    "passes_not_yet": (
        "5",
        "passes are resolved within the round once the quaffle is in play and no penalty "
        "is pending",
    ),
}

#: phrases (parts of messages, notes): id -> (gettext context, English template)
PHRASES: dict[str, tuple[str, str]] = {
    # --- paintball: chrono verdicts (20), the fold's notes (state.py), scoring (30, 32)
    "forbidden_mode": ("", "forbidden mode"),
    "shots_apart": ("", "shots {interval:g} ms apart"),
    "with_group_removal": ("", "group removal 1+1 with {player} ({section})"),
    "hit_at_paint_check": ("", "hit found at the paint check"),
    "hit_at_neutral_check": ("", "hit found at the neutral check"),
    "hit_at_hang_check": ("", "hit found at the flag-hang check"),
    "player_note": ("", "{player}: {verdict}"),
    "team_note": ("", "team {team}: {verdict}"),
    "ended_by_judge": ("", "game ended by a judge: {note}"),
    "head_to_head": ("", "head-to-head {points} pts, {diff:+d} diff"),
    "head_to_head_none": ("", "head-to-head: has not played the teams level with it"),
    "flagged": ("", "; flagged for the head judge"),
    "group_1_1": ("", "group removal 1+1"),
    "removed": ("", "player removed"),
    "no_further_removal": ("", "no further removal"),
    # --- paintball refusals: checks, chrono, flags, the inspection (24-25, 20, 22-23, 18.02)
    "status_in_play": ("", "in_play"),
    "status_eliminated": ("", "eliminated"),
    "status_neutral": ("", "neutral"),
    "status_not_admitted": ("", "not_admitted"),
    "status_no_marker": ("", "no_marker"),
    "status_clean": ("18.02", "clean"),
    "status_hit_found": ("18.02", "hit_found"),
    "status_did_not_report": ("18.02", "did_not_report"),
    "check_paint": ("", "paint check"),
    "check_neutral": ("", "neutral check"),
    # --- the pre-game marker check (19.03-19.05, 20.02)
    "shots_after_release": ("", "{n} shots after release (at most {limit})"),
    "late_after_release": ("", "a shot {d} ms after release (at most {limit:g})"),
    "rof_under": ("", " is under {m:g} ms"),
    "rof_tolerance": ("", " (within ±{t:g} ms timing tolerance)"),
    "rof_not_measured": ("", "; {n} not measured"),
    "acceptance_foreign_object": ("", "a foreign object in the barrel, breech or loader"),
    "acceptance_loose_parts": (
        "",
        "bolts, chambers, tanks or other parts affecting the velocity not fixed",
    ),
    "acceptance_toolless_adjuster": ("", "a part that changes the velocity or mode without tools"),
    # --- the protocol (31, 32.03) and a correction against the rules (30.01)
    "handover_needs_pin": (
        "",
        "only the head judge hands a game over to another laptop, with his secret",
    ),
    "for_flag_hang": ("30.01", "the flag hang"),
    "for_flag_held": ("30.01", "the flag held at the end"),
    "for_draw": ("30.01", "a draw"),
    "for_loss": ("30.01", "a loss"),
    "points_one": ("points:one", "{n} point"),
    "points_few": ("points:few", "{n} points"),
    "points_many": ("points:many", "{n} points"),
    "points_against_rule": ("", "{team}: 30.01 gives {expected} for {what} — record {given}?"),
    # --- the head judge's secret and keys
    "secret_too_short": ("", "The head judge's secret must be at least {minimum} characters long."),
    "secret_not_text": (
        "",
        "The secret holds characters that are not text (a paste or a terminal in another "
        "encoding): type it again.",
    ),
    "wrong_secret": ("", "Wrong head judge's secret."),
    "wait_before_retry": ("", "Too many wrong secrets on this laptop: try again in {seconds} s."),
    "key_not_pinned": (
        "",
        "This head judge's key is not the one the tournament registered: the stored "
        "secret may have been replaced.",
    ),
    "damaged_head_judge_record": ("", "The stored head judge's key is damaged: {error}."),
    "tournament_needs_secret": (
        "",
        "only the head judge signs the tournament's settings, teams and schedule, with his secret",
    ),
    "registration_needs_secret": (
        "",
        "only the head judge registers a laptop's key, with his secret",
    ),
    "tournament_decision_needs_secret": (
        "",
        "only the head judge decides a difference between two laptops' tournament files, "
        "with his secret",
    ),
    "secret_common": (
        "",
        "This secret is among the most common passwords: someone with a copy of the "
        "folder tries those first. Choose a phrase of several words.",
    ),
    "secret_repeated": (
        "",
        "This secret repeats the same characters: it is guessed at once. Choose a phrase "
        "of several words.",
    ),
    "secret_sequence": (
        "",
        "This secret is a sequence (like 12345678 or abcdefgh) or a row of keys: it is "
        "guessed at once. Choose a phrase of several words.",
    ),
    "secret_guessable": (
        "",
        "This secret is too easy to guess (about {guesses} tries, a few days for one "
        "computer). Choose a longer phrase of several words.",
    ),
    # --- who writes: the game's owner, the head judge's laptop (services/tournament.py)
    "not_owner": (
        "",
        "this game belongs to laptop {owner}: it is read-only here until the head judge "
        "hands it over",
    ),
    "file_changed_elsewhere": (
        "",
        "the game file was changed on disk by someone else (e.g. another laptop's version, "
        "through Syncthing): nothing was written; try again in a few seconds",
    ),
    "not_head_laptop": (
        "",
        "tournament.json is changed only on the head judge's laptop ({laptop}): ask him to "
        "make this change there",
    ),
    "no_head_judge_key": (
        "",
        "this tournament has no head judge key (made when the tournament was created)",
    ),
}

# --- elimination reasons (``paintball/reasons.py``): key -> (section, English text)

# Reasons a judge logs with an ``elimination`` event.
DIRECT_REASON_TEXTS: dict[str, tuple[str, str]] = {
    "hit": ("26", "hit"),
    "playing_on": ("28.02", "playing on after a hit"),
    "picked_up_balls": ("29.01", "shooting balls picked up"),
    "out_of_bounds": ("29.02", "out of bounds"),
    "no_mask": ("29.03", "no mask"),
    "deadman": ("29.04", "calling out / deadman"),
    "tools": ("29.05", "tools or forbidden equipment"),
    "equipment_over_2m": ("29.06", "more than 2 m from own equipment"),
    "unsportsmanlike": ("29.07", "unsportsmanlike conduct"),
    "judge_removal": ("29.08", "removed by a judge"),
    "imitating_signals": ("29.09", "imitating judge signals"),
    "own_flag_touch": ("22.01", "touching own flag"),
    "flag_hidden": ("22.02", "flag not carried visibly"),
    "marker_tampering": ("20.07", "acting on the marker in play"),
}
# Reasons a judge logs before the clock starts (20.07, second item of that number: on
# «Положить маркеры» a player who does not lay his marker down is counted eliminated).
PRE_START_REASON_TEXTS: dict[str, tuple[str, str]] = {
    "markers_down": ("20.07", 'marker not laid down on "Markers down"')
}
# Reasons the fold assigns by itself (from checks, chrono, group removals, inspection).
DERIVED_REASON_TEXTS: dict[str, tuple[str, str]] = {
    "group_removal": ("29.08", "group removal 1+1"),
    "chrono_over_limit": ("20.03", "marker over 300 fps"),
    "chrono_group": ("20.04", "marker over 310 fps"),
    "chrono_above_320": ("20.04", "marker over 320 fps"),
    "forbidden_mode": ("20.05", "forbidden mode or rate of fire"),
    "failed_inspection": ("18.02", "hit found at post-game inspection"),
    "did_not_report": ("18.02", "did not report for inspection"),
}
