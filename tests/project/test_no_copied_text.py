"""No file of the project copies the source rule texts: no run of 10 or more words in common.

The seeds (``shared/seeds/*.txt``, beside the checkout) are what the project
formalizes, and the project states them in its own words, citing file and
section. This test reads every tracked text file of the checkout and looks for
any run of :data:`RUN` consecutive words that also occurs in a seed.

Words are compared after normalising: lower case, split on anything that is
not a letter or digit, an apostrophe inside a word dropped (``player's`` is
``players``), curly quotes made straight, ``\\n`` and ``\\t`` escapes and
reST role names and HTML tags read as spaces. So a copy that changes only
case, punctuation, line breaks, string concatenation or markup is still a
copy. Every 10-word window of the seeds goes into a set; each project file's
word stream is slid over it, and overlapping hits merge into one finding.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import REPO, SEEDS

pytestmark = pytest.mark.infrastructure("the project states the source texts in its own words, never copies them")

RUN = 10
"""The shortest run of shared consecutive words that counts as a copy."""

SKIPPED_FOLDERS = ("docs/_build/", ".venv/")

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_CURLY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_ESCAPE = re.compile(r"\\[ntr]")
_RST_ROLE = re.compile(r":[\w.+-]+:(?=`)")
_HTML_TAG = re.compile(r"<[^<>\n]*>")


def words(text: str) -> list[tuple[str, int]]:
    """The normalised words of ``text``, each with the (1-based) line it starts on."""
    text = text.translate(_CURLY)
    # same length substitutions, so that offsets (and so line numbers) stay right
    text = _ESCAPE.sub("  ", text)
    text = _RST_ROLE.sub(lambda m: " " * len(m.group()), text)
    text = _HTML_TAG.sub(lambda m: " " * len(m.group()) if "\n" not in m.group() else m.group(), text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out: list[tuple[str, int]] = []
    line = 0
    for m in _WORD.finditer(text.lower()):
        while line + 1 < len(line_starts) and line_starts[line + 1] <= m.start():
            line += 1
        out.append((m.group().replace("'", ""), line + 1))
    return out


def seed_shingles(seeds: dict[str, str]) -> dict[tuple[str, ...], str]:
    """Every run of :data:`RUN` words of the seeds, mapped to the (first) seed file that holds it."""
    shingles: dict[tuple[str, ...], str] = {}
    for name, text in sorted(seeds.items()):
        seed = [w for w, _ in words(text)]
        for i in range(len(seed) - RUN + 1):
            shingles.setdefault(tuple(seed[i : i + RUN]), name)
    return shingles


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    length: int
    seed: str
    shared: str

    def __str__(self) -> str:
        return f'{self.file}:{self.line}: shares {self.length} words with {self.seed}: "{self.shared}"'


def scan(name: str, text: str, shingles: dict[tuple[str, ...], str]) -> list[Finding]:
    """The runs of ``text`` that a seed shares, overlapping windows merged into one finding each."""
    stream = words(text)
    tokens = [w for w, _ in stream]
    hits = [(i, shingles[tuple(tokens[i : i + RUN])]) for i in range(len(tokens) - RUN + 1)
            if tuple(tokens[i : i + RUN]) in shingles]
    findings: list[Finding] = []
    k = 0
    while k < len(hits):
        start, seed = hits[k]
        end = start + RUN
        seeds = [seed]
        while k + 1 < len(hits) and hits[k + 1][0] < end:
            k += 1
            end = hits[k][0] + RUN
            if hits[k][1] not in seeds:
                seeds.append(hits[k][1])
        findings.append(Finding(name, stream[start][1], end - start, ", ".join(seeds), " ".join(tokens[start:end])))
        k += 1
    return findings


def project_texts() -> dict[str, str]:
    """Every tracked file of the checkout that is UTF-8 text (no NUL byte), by its path in the checkout."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    texts: dict[str, str] = {}
    for rel in listed.decode().split("\0"):
        if not rel or rel.startswith(SKIPPED_FOLDERS):
            continue
        path = REPO / rel
        if not path.is_file():  # deleted in the working tree, or a submodule
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts[rel] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def read_seeds(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))}


@pytest.fixture(scope="module")
def shingles() -> dict[tuple[str, ...], str]:
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds folder {SEEDS} is not beside this checkout")
    seeds = read_seeds(SEEDS)
    assert seeds, f"no seed texts (*.txt) in {SEEDS}"
    return seed_shingles(seeds)


def test_no_project_file_copies_a_seed(shingles: dict[tuple[str, ...], str]) -> None:
    texts = project_texts()
    assert len(texts) > 100, "git ls-files listed almost nothing: is this a checkout?"
    findings = [f for name, text in sorted(texts.items()) for f in scan(name, text, shingles)]
    assert not findings, (
        f"{len(findings)} run(s) of {RUN}+ words copied from the seeds; restate them in the project's own words:\n"
        + "\n".join(map(str, findings))
    )


def test_a_planted_copy_is_found(shingles: dict[tuple[str, ...], str], tmp_path: Path) -> None:
    seed_name = "002_ba5accbef023c5a7.txt"
    seed = (SEEDS / seed_name).read_text(encoding="utf-8").split()
    # a 12-word stretch of the seed, taken as it is written there
    original = seed[40:52]
    assert len(original) == 12

    def found(text: str) -> list[Finding]:
        planted = tmp_path / "planted.py"
        planted.write_text(text, encoding="utf-8")
        return scan(planted.name, planted.read_text(encoding="utf-8"), shingles)

    # ten words, verbatim, after some text of the project's own
    ten = " ".join(original[:10])
    (hit,) = found(f"# a note of our own\nx = 1\nNOTE = '{ten}'\n")
    assert (hit.file, hit.line, hit.length, hit.seed) == ("planted.py", 3, 10, seed_name)
    assert hit.shared == " ".join(w for w, _ in words(ten))
    assert str(hit).startswith(f"planted.py:3: shares 10 words with {seed_name}: ")

    # nine words are not a copy
    assert found(f"NOTE = '{' '.join(original[:9])}'\n") == []

    # twelve words, in upper case, with the punctuation changed and split over
    # a Python string concatenation and a line break, in reST markup
    head = " ".join(original[:5]).upper().replace(".", ";")
    tail = " ".join(f"``{w.strip('.,')}``," for w in original[5:])
    (hit,) = found(f'"""Intro.\n"""\nNOTE = (\n    "{head} "\n    "{tail}"\n)\n')
    assert (hit.line, hit.length, hit.seed) == (4, 12, seed_name)

    # two overlapping windows are one finding with the length of the whole run
    (hit,) = found(" ".join(seed[40:51]) + "\n")
    assert hit.length == 11

    # two separate copies are two findings
    copies = found(ten + "\nand now something else entirely\n" + " ".join(seed[100:110]) + "\n")
    assert [(h.line, h.length) for h in copies] == [(1, 10), (3, 10)]
