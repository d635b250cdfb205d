"""Scope files: the named scopes load, and every problem of a malformed file names the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.properties.scopes import SCOPE_NAMES, ScopeError, load_scope, load_scopes
from tests.cli import run_cli
from tests.properties.scopes.tiny import RED_TINY, write

pytestmark = pytest.mark.infrastructure("the cardrules-scope/1 format and the named scopes")


def test_each_game_ships_small_and_medium() -> None:
    for game in ("fftcg", "redemption"):
        assert SCOPE_NAMES[game][:2] == ("small", "medium")
        scope = load_scope("small", game)
        described = scope.describe()
        assert (scope.game, scope.name, scope.turns) == (game, "small", 1)
        assert described["bounds"]["max_states_per_position"] == scope.max_states_per_position
        assert described["zones"] and described["cards"]
    assert [s.game for s in load_scopes("small")] == ["fftcg", "redemption"]
    assert [s.game for s in load_scopes("redemption-medium")] == ["redemption"]


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ("max_states_per_position = 500", 'max_states_per_position = "lots"', "bounds.max_states_per_position",
         "not of type 'integer'"),
        ('cards = ["hl"]', 'cards = ["hx"]', "zones[1].cards[0]", "no card 'hx'"),
        ('zone = "bondage"', 'zone = "territory"', "zones[3].cards[0]", "a lost-soul cannot be in a territory"),
        ('alignment = "evil"', 'alignment = "neutral"', "cards.e33.alignment", "'neutral' is not one of"),
        ("count = [1, 2]", "count = [2, 1]", "zones[0].count", "[at least, at most]"),
        ('point = "battle-phase"', 'point = "attack-phase"', "start.point", "'battle-phase' was expected"),
        ("turns = 1", "turns = 1\nspeed = 3", "bounds", "'speed' was unexpected"),
    ],
)
def test_a_malformed_scope_file_names_the_file_and_field(tmp_path: Path, old: str, new: str, field: str,
                                                         problem: str) -> None:
    assert old in RED_TINY
    path = write(tmp_path, RED_TINY.replace(old, new, 1))
    with pytest.raises(ScopeError) as caught:
        load_scope(str(path), "redemption")
    message = str(caught.value)
    assert message.startswith(f"{path}: {field}: ") and problem in message and "\n" not in message


def test_unknown_names_and_other_games_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ScopeError, match="no named redemption scope of that name; named: small, medium"):
        load_scope("huge", "redemption")
    with pytest.raises(ScopeError, match="game: a redemption scope, not a fftcg one"):
        load_scope(str(write(tmp_path, RED_TINY)), "fftcg")
    with pytest.raises(ScopeError, match="no such file"):
        load_scope(str(tmp_path / "missing.toml"), "fftcg")


@pytest.mark.parametrize("command", ["verify", "explore"])
def test_the_command_line_reports_a_bad_scope_file_as_bad_input(tmp_path: Path, command: str) -> None:
    path = write(tmp_path, RED_TINY.replace("turns = 1", "turns = 0"))
    result = run_cli(command, "--scope", str(path), "--quiet")
    assert result.code == 3
    assert f"{path}: bounds.turns: " in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", ["device", "folder", "fifo", "missing", "bare name of a file"])
def test_a_scope_path_that_is_not_a_readable_file_is_bad_input(tmp_path: Path, kind: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    if kind == "device":
        path = "/dev/null"
    elif kind == "folder":
        path = str(tmp_path)
    elif kind == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    elif kind == "missing":
        path = str(tmp_path / "gone.toml")
    else:  # a file in the working folder named like a scope: read as the file, not as a name
        monkeypatch.chdir(tmp_path)
        write(tmp_path, RED_TINY.replace("turns = 1", "turns = 9"), "mine")
        path = "mine"
    for command in ("verify", "explore"):
        result = run_cli(command, "--scope", path, "--quiet")
        assert result.code == 3, (command, result)
        assert path in result.err and len(result.err.strip().splitlines()) == 1, result.err
