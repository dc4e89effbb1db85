"""An event's type as a fault names it: the English is the type's code, as ``verify``
has always printed it ("event #7 (elimination, …)"); the other languages read a word
from the catalog (``fieldjudge.po``, context "event type"), never the code (issue 25)."""

from __future__ import annotations

from fieldjudge.rules.messages import Phrase

#: every event type a game, a marker check or a quidditch match log records
EVENT_TYPE_NAMES: dict[str, Phrase] = {
    "checkin": Phrase.in_context("event type", "checkin"),
    "lineup": Phrase.in_context("event type", "lineup"),
    "marker_verdict": Phrase.in_context("event type", "marker_verdict"),
    "marker_approval": Phrase.in_context("event type", "marker_approval"),
    "old_paint": Phrase.in_context("event type", "old_paint"),
    "no_show": Phrase.in_context("event type", "no_show"),
    "clock_start": Phrase.in_context("event type", "clock_start"),
    "time_stop": Phrase.in_context("event type", "time_stop"),
    "clock_resume": Phrase.in_context("event type", "clock_resume"),
    "game_end": Phrase.in_context("event type", "game_end"),
    "elimination": Phrase.in_context("event type", "elimination"),
    "paint_check_start": Phrase.in_context("event type", "paint_check_start"),
    "paint_check_end": Phrase.in_context("event type", "paint_check_end"),
    "neutral_start": Phrase.in_context("event type", "neutral_start"),
    "neutral_end": Phrase.in_context("event type", "neutral_end"),
    "chrono_reading": Phrase.in_context("event type", "chrono_reading"),
    "flag_capture": Phrase.in_context("event type", "flag_capture"),
    "flag_handover": Phrase.in_context("event type", "flag_handover"),
    "flag_hang": Phrase.in_context("event type", "flag_hang"),
    "hang_verdict": Phrase.in_context("event type", "hang_verdict"),
    "inspection": Phrase.in_context("event type", "inspection"),
    "protocol_submitted": Phrase.in_context("event type", "protocol_submitted"),
    "captain_signed": Phrase.in_context("event type", "captain_signed"),
    "captain_refused": Phrase.in_context("event type", "captain_refused"),
    "total_corrected": Phrase.in_context("event type", "total_corrected"),
    "void": Phrase.in_context("event type", "void"),
    "game_handover": Phrase.in_context("event type", "game_handover"),
    "match_created": Phrase.in_context("event type", "match_created"),
    "round_resolved": Phrase.in_context("event type", "round_resolved"),
    "passes_resolved": Phrase.in_context("event type", "passes_resolved"),
    "seed_revealed": Phrase.in_context("event type", "seed_revealed"),
}


def event_type_name(etype: object) -> Phrase:
    """The type of an event in a fault: a known type by its word, any other (a file
    written by another program) as its code."""
    known = EVENT_TYPE_NAMES.get(str(etype))
    return known if known is not None else Phrase("{code}", code=str(etype))
