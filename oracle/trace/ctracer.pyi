"""Types of the compiled outcome tracer (``ctracer.c``): see :mod:`cardrules.oracle.trace.coverage`."""

from types import CodeType, FrameType
from typing import Any, Callable, TypeVar

T = TypeVar("T")

SOURCE_DIGEST: str

class Tracer:
    def __init__(self, decide: Callable[[CodeType], int], value_kind: Callable[[Any], str | None],
                 on_watched: Callable[[FrameType, bool], None],
                 namer: Callable[[CodeType, int, int, str | None], str]) -> None: ...
    def outcomes(self, run: Callable[[], T], watched: tuple[CodeType, ...], watch_only: bool,
                 mapping: dict[CodeType, tuple[str, ...]]
                 ) -> tuple[T, frozenset[str] | None, frozenset[str] | None]: ...
    def calls(self, run: Callable[[], T], mapping: dict[CodeType, tuple[str, ...]]) -> tuple[T, frozenset[str]]: ...
    def forget(self) -> None: ...
