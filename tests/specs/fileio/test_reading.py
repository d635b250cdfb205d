"""The file layer refuses what is not a bounded, regular, UTF-8 file with a bounded shape, naming file and place."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cardrules.specs.fileio import FileProblem, load_json, load_toml, parse_json, parse_toml, read_bytes, read_text

pytestmark = pytest.mark.infrastructure("the one reader of every file a user names: bounds and clean errors")


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"a": [1, 2.5, "x", null, true]}', encoding="utf-8")
    assert load_json(path) == {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_before_a_byte_is_read(device: str) -> None:
    with pytest.raises(FileProblem, match=rf"^{device}: is not a regular file"):
        read_bytes(device, limit=1000)


def test_a_link_to_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "proposal.toml"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileProblem, match="proposal.toml: is not a regular file"):
        load_toml(link)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "model.py"
    os.mkfifo(fifo)
    outcome: list[str] = []

    def attempt() -> None:
        try:
            read_text(fifo)
        except FileProblem as problem:
            outcome.append(str(problem))

    reader = threading.Thread(target=attempt, daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "the reader blocked on a FIFO"
    assert outcome and "model.py: is not a regular file" in outcome[0]


def test_a_folder_and_a_missing_file_are_named(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="is a folder, not a file"):
        read_bytes(tmp_path)
    with pytest.raises(FileProblem, match="nothere.json: no such file"):
        read_bytes(tmp_path / "nothere.json")


def test_the_size_bound_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 1001)
    with pytest.raises(FileProblem, match="big.json: is larger than 1,000 bytes"):
        read_bytes(path, limit=1000)
    assert read_bytes(path, limit=1001) == b" " * 1001


def test_names_no_file_system_holds(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match=r"a\\0b.json: the path contains a NUL byte"):
        read_bytes(str(tmp_path / "a\0b.json"))
    with pytest.raises(FileProblem, match="a name in the path is longer than 255 bytes"):
        read_bytes(tmp_path / ("x" * 256))
    with pytest.raises(FileProblem, match="the path is longer than 4,096 bytes"):
        read_bytes(tmp_path / ("x" * 5000))


def test_a_byte_that_is_not_utf8_is_placed_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes(b'a = 1\nb = "\xff"\n')
    with pytest.raises(FileProblem, match=r"a.toml: line 2, column 6: not UTF-8 text"):
        load_toml(path)


def test_json_syntax_errors_are_placed() -> None:
    with pytest.raises(FileProblem, match=r"^s: line 2, column 1: not valid JSON"):
        parse_json('{"a": 1,\n}', "s")


@pytest.mark.parametrize("depth", [101, 5_000, 100_000])
def test_json_nesting_is_bounded(depth: int) -> None:
    with pytest.raises(FileProblem, match="nested more than 100 deep"):
        parse_json("[" * depth + "]" * depth, "s")


def test_json_nesting_up_to_the_bound_is_read() -> None:
    assert parse_json("[" * 100 + "]" * 100, "s") is not None


@pytest.mark.parametrize("literal", ["1" * 31, "-" + "9" * 5000, "1" * 100_000])
def test_long_json_integers_are_refused_with_their_place(literal: str) -> None:
    with pytest.raises(FileProblem, match=r"^s: line 2, column 7: not valid JSON here: an integer has more than 30 digits"):
        parse_json('{\n "n": ' + literal + "}", "s")


def test_thirty_digit_integers_are_read() -> None:
    assert parse_json("[" + "9" * 30 + "]", "s") == [int("9" * 30)]


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity]", "[-Infinity]", "[1e999]"])
def test_json_numbers_that_are_not_finite_are_refused(text: str) -> None:
    with pytest.raises(FileProblem, match="not valid JSON here"):
        parse_json(text, "s")


def test_toml_integers_and_nesting_are_bounded() -> None:
    with pytest.raises(FileProblem, match=r"^p.toml: line 1, column 5: not valid TOML here: an integer has more than 30"):
        parse_toml("a = " + "7" * 5000, "p.toml")
    with pytest.raises(FileProblem, match="p.toml: a.b: an integer has more than 30 digits"):
        parse_toml("[a]\nb = " + "7" * 40, "p.toml")
    with pytest.raises(FileProblem, match="nested more than 100 deep"):
        parse_toml("a = " + "[" * 5000 + "]" * 5000, "p.toml")
    with pytest.raises(FileProblem, match="nested more than 100 deep"):
        parse_toml("a = " + "[" * 150 + "]" * 150, "p.toml")
    with pytest.raises(FileProblem, match="p.toml: x: nan is not a number accepted here"):
        parse_toml("x = nan", "p.toml")


def test_toml_syntax_errors_name_the_file() -> None:
    with pytest.raises(FileProblem, match=r"^p.toml: not valid TOML: .*line 1"):
        parse_toml("a = = 1", "p.toml")
