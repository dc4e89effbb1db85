"""Create a tournament: name, date, venue, head judge and his secret, division settings
(30.01)."""

from __future__ import annotations

from datetime import date

from fieldjudge.i18n import _, rule_text
from fieldjudge.screens.dialogs.forms import Field, FormScreen, Values, parse_check
from fieldjudge.services import Refused, TournamentService, create_tournament, slugify
from fieldjudge.services.trust.head_judge import MIN_SECRET_CHARS
from fieldjudge.services.trust.secret_strength import secret_weakness
from fieldjudge.settings import DEFAULTS, settings_from_form


def today() -> date:
    """The form's default date (a function so snapshot tests can fix it)."""
    return date.today()


def tournament_fields(day: date) -> list[Field]:
    pts = DEFAULTS["points"]
    return [
        Field("name", _("Tournament name")),
        Field("date", _("Date (YYYY-MM-DD)"), day.isoformat()),
        Field("venue", _("Venue")),
        Field("division", _("Division"), "Д3"),
        Field("head_judge", _("Head judge")),
        Field("pin", _("Head judge secret (8+ characters)"), password=True),
        Field("pin2", _("Secret again"), password=True),
        Field("team_size", _("Players per team"), str(DEFAULTS["team_size"]), restrict=r"\d*"),
        Field("game_length", _("Game length (m:ss)"), "7:00"),
        Field("flag_hang", _("Points: flag hang"), str(pts["flag_hang"]), restrict=r"\d*"),
        Field(
            "flag_held", _("Points: flag held at the end"), str(pts["flag_held"]), restrict=r"\d*"
        ),
        Field("draw", _("Points: draw"), str(pts["draw"]), restrict=r"\d*"),
        Field("loss", _("Points: loss"), str(pts["loss"]), restrict=r"\d*"),
        Field(
            "end_when_team_out",
            _("A team with nobody left ends the game (23.03)? y/n"),
            _("no"),
        ),
        Field("fps_precision", _("Fps judged on (20.02/20.03): whole or exact"), _("whole")),
        Field(
            "inspection_penalty_points",
            _("Inspection: penalty points per hit found (18.02)"),
            str(DEFAULTS["inspection_penalty_points"]),
            restrict=r"\d*",
        ),
    ]


def validate_tournament(v: Values) -> str | None:
    if not v["name"]:
        return _("The tournament needs a name")
    try:
        date.fromisoformat(v["date"])
    except ValueError:
        return _("Date must be YYYY-MM-DD")
    if not v["head_judge"]:
        return _("Enter the head judge's name")
    if len(v["pin"].strip()) < MIN_SECRET_CHARS:
        return _("The head judge secret needs at least 8 characters")
    if v["pin"] != v["pin2"]:
        return _("The two secrets differ")
    if (why := secret_weakness(v["pin"], (v["name"], v["head_judge"]))) is not None:
        return rule_text(why)
    return parse_check(settings_from_form)(v)


def create_from_values(data_dir, v: Values) -> TournamentService:
    base = slugify(v["name"])
    folder = data_dir / base
    n = 2
    while folder.exists():
        folder = data_dir / f"{base}-{n}"
        n += 1
    return create_tournament(
        folder,
        name=v["name"],
        day=date.fromisoformat(v["date"]),
        venue=v["venue"],
        head_judge=v["head_judge"],
        head_judge_secret=v["pin"],
        division=v["division"],
        settings=settings_from_form(v),
    )


def create_tournament_flow(app) -> None:
    def done(values: Values | None) -> None:
        if values is None:
            return
        try:
            app.close_tournament()
            t = create_from_values(app.data_dir, values)
        except (OSError, Refused) as exc:
            app.notify(str(exc), severity="error", markup=False)
            return
        app.install_tournament(t)
        app.notify(_("Tournament created") + f": {t.folder}", markup=False)

    app.push_screen(
        FormScreen(_("New tournament"), tournament_fields(today()), validate_tournament),
        done,
    )
