"""The words of the pit page, from the gettext catalogs (``fieldjudge.po``), handed to its script
as one JSON object. The page itself is language-free HTML; ``?lang=ru|en`` picks these."""

from __future__ import annotations

import functools

from fieldjudge import i18n


@functools.lru_cache(maxsize=4)
def page_strings(lang: str) -> dict[str, str]:
    catalog = i18n.load(lang)
    _ = catalog.gettext
    return {
        "lang": lang,
        "title": _("Pit display"),
        "live": _("Live games"),
        "schedule": _("Schedule"),
        "next_games": _("Next games"),
        "no_next": _("No more games scheduled"),
        "standings": _("Standings"),
        "no_live": _("No game in play"),
        "field": _("Field"),
        "in_play": _("in play"),
        "time_called": _("Time!"),
        "flag_of": _("Flag of {team}"),
        "carried_by": _("carried by {player}"),
        "st_scheduled": _("Scheduled"),
        "st_running": _("Game on"),
        # a running clock at 0:00 with no end from the field laptop yet (it is off, say)
        "st_time_up": _("Time is up"),
        "st_time_stopped": _("Time!"),
        "st_hang_check": _("Flag hang check"),
        "st_ended": _("Post-game inspection"),
        "st_final": _("Final"),
        "st_no_show": _("No-show"),
        "st_pending": "…",  # a game not checked yet (the first seconds): no data shown
        # a game whose file is torn, truncated or not the manifest's: the card's state
        "st_damaged": catalog.pgettext("pit display", "DAMAGED"),
        # a game signed by a laptop the head judge has not registered (yet): nothing torn
        "st_unregistered": catalog.pgettext("pit display", "NOT COUNTED"),
        "pr_submitted": _("protocol submitted"),
        "pr_signed": _("protocol answered, not all signed"),
        "pr_locked": _("protocol signed"),
        "fl_at_base": _("at base"),
        "fl_carried": _("carried"),
        "fl_hang_check": _("hang check"),
        "fl_hung": _("HUNG"),
        "fl_taken_by_judge": _("taken by the judge"),
        "fl_spare": _("spare flag at base"),
        "col_rank": "#",
        "col_team": _("Team"),
        "col_games": _("Games"),
        "col_points": _("Points"),
        "col_diff": _("Diff"),
        "col_hangs": _("Hangs"),
        "col_wdl": _("W-D-L"),
        "col_time": _("Time"),
        "col_game": _("Game"),
        "col_state": _("State"),
        "provisional_note": _("* provisional: the captains have not both signed yet"),
        "lost": _("connection lost — last update {time}"),
        "updated": _("updated {time}"),
        "connecting": _("connecting…"),
        "damaged": _("file damaged"),
        "unregistered": _("not counted yet"),
        "pts": _("pts"),
    }
