"""Settings round trip, penalty catalogue and the in-game chrono verdicts (20.02-20.05)."""

import pytest

from fieldjudge.rules.paintball.chrono import chrono_verdict
from fieldjudge.rules.paintball.setup import ChronoSettings, Points, Settings, needs_second_player


def test_settings_defaults_match_rules_digest():
    s = Settings()
    assert s.team_size == 5
    assert s.game_length_ms == 420_000
    assert s.points == Points(flag_hang=3, flag_held=2, draw=1, loss=0)
    assert s.diff_clamp == 5
    assert s.chrono.limit_fps == 300 and s.chrono.group_upto_fps == 320
    assert s.chrono.rof_min_interval_ms == 95 and s.chrono.max_balls == 140
    assert s.penalties["playing_on"] == "group_1_1"
    assert (s.min_gap_minutes, s.checkin_minutes) == (12, 3)


def test_settings_round_trip_through_dict():
    s = Settings(game_length_ms=600_000, diff_clamp=3, penalties={"unsportsmanlike": "group_1_1"})
    again = Settings.from_dict(s.to_dict())
    assert again == s
    assert again.penalties["unsportsmanlike"] == "group_1_1"


def test_settings_from_dict_ignores_unknown_and_defaults_missing():
    s = Settings.from_dict(
        {"team_size": "7", "bogus": 1, "points": {"flag_hang": 4, "zzz": 9}, "chrono": "junk"}
    )
    assert s.team_size == 7
    assert s.points.flag_hang == 4 and s.points.flag_held == 2
    assert s.chrono == ChronoSettings()
    assert s.penalties["playing_on"] == "group_1_1"
    assert Settings.from_dict(None) == Settings()


def test_settings_from_dict_rejects_bad_penalty_kind_and_policy():
    s = Settings.from_dict(
        {"penalties": {"hit": "explode", "no_mask": "group_1_1"}, "chrono": {"above_320": "x"}}
    )
    assert "hit" not in s.penalties
    assert s.penalties["no_mask"] == "group_1_1"
    assert s.chrono.above_320 == "group_1_1_flagged"


def test_34_01_playing_on_needs_second_player_by_default():
    s = Settings()
    assert needs_second_player(s, "playing_on") is True
    assert needs_second_player(s, "hit") is False
    assert needs_second_player(Settings(penalties={"playing_on": "removal"}), "playing_on") is False


@pytest.mark.parametrize("fps", [0, 250, 300, 300.0])
def test_20_02_up_to_300_fps_no_penalty(fps):
    v = chrono_verdict(Settings(), fps)
    assert v.penalty == "none" and not v.eliminates
    assert v.text.startswith("20.02")


@pytest.mark.parametrize("fps", [300.1, 301, 305, 310])
def test_20_03_over_300_fps_removal(fps):
    v = chrono_verdict(Settings(fps_precision="exact"), fps)  # whole fps: test_precision.py
    assert (v.penalty, v.section, v.reason) == ("removal", "20.03", "chrono_over_limit")
    assert not v.needs_second_player and not v.flagged


@pytest.mark.parametrize("fps", [310.5, 311, 320])
def test_20_04_over_310_up_to_320_group_removal(fps):
    v = chrono_verdict(Settings(fps_precision="exact"), fps)
    assert (v.penalty, v.section) == ("group_1_1", "20.04")
    assert v.needs_second_player and not v.flagged


def test_20_04_above_320_default_group_and_flagged_for_head_judge():
    v = chrono_verdict(Settings(), 335)
    assert v.penalty == "group_1_1" and v.flagged
    assert "head judge" in v.text and "335" in v.text


def test_20_04_above_320_policy_is_a_setting():
    s = Settings(chrono=ChronoSettings(above_320="removal"))
    v = chrono_verdict(s, 340)
    assert v.penalty == "removal" and not v.flagged


def test_20_05_forbidden_mode_disqualifies_and_penalises_team():
    v = chrono_verdict(Settings(), 280, forbidden_mode=True)
    assert (v.penalty, v.section) == ("disqualification", "20.05")
    assert v.disqualify and v.team_penalty and v.eliminates


def test_20_02_rate_of_fire_faster_than_95_ms_is_forbidden():
    assert chrono_verdict(Settings(), 280, interval_ms=95).penalty == "none"
    v = chrono_verdict(Settings(), 280, interval_ms=80)
    assert v.section == "20.05" and v.disqualify


def test_20_03_limit_is_a_setting():
    s = Settings(chrono=ChronoSettings(limit_fps=280.0))
    assert chrono_verdict(s, 290).penalty == "removal"
