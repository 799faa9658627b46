"""Stratego Junior data: castles, board geometry and die faces, loaded from ``pieces.yaml`` and
validated (``rules/stratego_junior.md`` sections 1, 2 and 7).

Every number the spec marks as a placeholder (knight / unicorn / dwarf counts, die faces, board
geometry) lives in the YAML file. :func:`load_pieces` checks a file and raises
:class:`PiecesDataError` listing every problem; the module loads the packaged file once at import and
exposes it as :data:`DATA`, a :class:`GameData` of plain tuples for the engine's hot paths.

Squares are integers ``row * columns + column``; rows count from blue's back row (row 0) to red's
back row (the last row). Seat 0 is red, seat 1 is blue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

#: The file shipped with the package.
PIECES_FILE = Path(__file__).with_name("pieces.yaml")

#: Big castles the rules refer to by name (spec sections 4.2 B and 5.3).
FLAG = "flag"
BLACK_KNIGHT = "black_knight"
JESTER = "jester"
BIG_IDS = (FLAG, BLACK_KNIGHT, JESTER)

#: Victory combat results (spec 5.2): the attacker wins and moves in, the defender wins (the
#: attacker is removed), or both are removed.
ATTACKER, DEFENDER, BOTH = 0, 1, 2

COLOURS = ("red", "blue")


class PiecesDataError(ValueError):
    """The pieces file does not fit the schema; the message names the file and every problem."""


class BoardModel(BaseModel):
    """The grid (spec section 2, AMBIGUITY 3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    columns: int = Field(ge=1, le=26)
    rows: int = Field(ge=3, le=40)
    blue_rows: tuple[int, ...]
    middle_rows: tuple[int, ...]
    red_rows: tuple[int, ...]
    lakes_on_grid: tuple[tuple[int, int], ...] = ()
    towers_per_side: int = Field(ge=1, le=10)

    @model_validator(mode="after")
    def _consistent(self) -> BoardModel:
        k = len(self.blue_rows)
        if k < 1 or len(self.red_rows) != k:
            raise ValueError("blue_rows and red_rows need the same number (>= 1) of rows")
        if list(self.blue_rows) != list(range(k)):
            raise ValueError(f"blue_rows must be 0..{k - 1} (row 0 = blue's back row)")
        if list(self.red_rows) != list(range(self.rows - k, self.rows)):
            raise ValueError(f"red_rows must be {self.rows - k}..{self.rows - 1} (the last row = red's back row)")
        if not self.middle_rows or list(self.middle_rows) != list(range(k, self.rows - k)):
            raise ValueError(f"middle_rows must be the rows between the formations, {k}..{self.rows - k - 1}")
        seen = set()
        for r, c in self.lakes_on_grid:
            if r not in self.middle_rows or not 0 <= c < self.columns:
                raise ValueError(f"lake square ({r}, {c}) must be in a middle row and on the grid")
            if (r, c) in seen:
                raise ValueError(f"lake square ({r}, {c}) listed twice")
            seen.add((r, c))
        for r in self.middle_rows:
            if all((r, c) in seen for c in range(self.columns)):
                raise ValueError(f"middle row {r} is all lakes: the formations could never meet")
        return self


class PieceModel(BaseModel):
    """One kind of castle (a row of the spec's section 1.1 table)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z_]*$")
    strength: int | None = Field(default=None, ge=0)
    count: int = Field(ge=0, le=64)
    big: bool
    movable: bool
    beats: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> PieceModel:
        if self.big:
            if self.id not in BIG_IDS:
                raise ValueError(f"big castles are {list(BIG_IDS)}, not {self.id!r}")
            if self.movable or self.strength is not None or self.beats or self.count != 1:
                raise ValueError("a big castle has count 1, no strength, no beats and never moves")
        else:
            if self.id in BIG_IDS:
                raise ValueError(f"{self.id!r} must be a big castle")
            if self.movable and self.strength is None:
                raise ValueError("a movable small castle needs a strength")
            if not self.movable and self.strength is not None:
                raise ValueError("an immobile small castle (a dragon) has no strength")
        if self.id in self.beats:
            raise ValueError("a piece cannot beat its own kind")
        return self


class PiecesModel(BaseModel):
    """The whole file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    board: BoardModel
    pieces: tuple[PieceModel, ...]
    die_faces: tuple[str, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> PiecesModel:
        ids = [p.id for p in self.pieces]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate piece ids: {dupes}")
        by_id = {p.id: p for p in self.pieces}
        missing = [b for b in BIG_IDS if b not in by_id]
        if missing:
            raise ValueError(f"missing big castles: {missing}")
        if self.board.towers_per_side != len(BIG_IDS):
            raise ValueError(f"towers_per_side must equal the number of big castles, {len(BIG_IDS)}")
        small = [p for p in self.pieces if not p.big]
        squares = self.board.columns * len(self.board.red_rows)
        total = sum(p.count for p in small)
        if total != squares:
            raise ValueError(f"the small castles ({total}) must fill the {squares} formation squares exactly")
        if not any(p.movable and p.count for p in small):
            raise ValueError("at least one small castle must be movable")
        for p in self.pieces:
            for target in p.beats:
                if target not in by_id or by_id[target].big:
                    raise ValueError(f"{p.id} beats {target!r}, which is not a small castle")
                if p.id in by_id[target].beats:
                    raise ValueError(f"{p.id} and {target} cannot beat each other")
            if p.beats and not p.movable:
                raise ValueError(f"{p.id} never attacks, so it cannot beat anything")
        for face in self.die_faces:
            if face not in by_id or by_id[face].big or by_id[face].strength is None:
                raise ValueError(f"die face {face!r} must be a small castle with a strength (no dragon on the die)")
        return self


@dataclass(frozen=True)
class GameData:
    """The validated file as lookup tables. Kinds are indices into :attr:`kinds`.

    :ivar kinds: piece ids in file order.
    :ivar small: indices of the small castles; :ivar big: of the big ones (tower order: flag,
        black knight, jester as listed).
    :ivar strength: per kind, ``None`` for dragons and big castles.
    :ivar combat: ``combat[a][d]`` = :data:`ATTACKER` / :data:`DEFENDER` / :data:`BOTH` for small
        kinds (``-1`` where ``a`` cannot attack).
    :ivar adj: per square, its orthogonal neighbours that are not lakes.
    :ivar formation: per seat, its rows front row first, each in the owner's left-to-right order
        (red: columns 0..; blue: columns ..0, the board turned round).
    :ivar back_row: per seat, the squares of that seat's own back row.
    :ivar tower_order: per seat, the board's tower slots in the owner's left-to-right order.
    """

    model: PiecesModel
    kinds: tuple[str, ...]
    index: Mapping[str, int]
    small: tuple[int, ...]
    big: tuple[int, ...]
    strength: tuple[int | None, ...]
    movable: tuple[bool, ...]
    counts: tuple[int, ...]
    beats: tuple[frozenset[int], ...]
    combat: tuple[tuple[int, ...], ...]
    die_faces: tuple[int, ...]
    flag: int
    black_knight: int
    jester: int
    columns: int
    rows: int
    squares: int
    lakes: frozenset[int]
    middle: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    formation: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    formation_squares: tuple[frozenset[int], frozenset[int]]
    back_row: tuple[tuple[int, ...], tuple[int, ...]]
    towers: int
    tower_order: tuple[tuple[int, ...], tuple[int, ...]]
    small_pool: tuple[int, ...]  #: one side's small castles as kinds, file order (16 by default)

    def rc(self, sq: int) -> tuple[int, int]:
        """``(row, column)`` of square ``sq``."""
        return divmod(sq, self.columns)

    def sq(self, row: int, column: int) -> int:
        """The square at ``(row, column)``.

        :raises ValueError: off the grid.
        """
        if not (0 <= row < self.rows and 0 <= column < self.columns):
            raise ValueError(f"({row}, {column}) is off the {self.rows}x{self.columns} board")
        return row * self.columns + column

    def geometry_json(self) -> dict[str, Any]:
        """The board for clients: ``{"rows", "columns", "middle_rows", "lakes", "formation_rows",
        "back_rows", "towers"}``; ``formation_rows[seat]`` lists that seat's rows front row first."""
        b = self.model.board
        return {
            "rows": self.rows,
            "columns": self.columns,
            "middle_rows": list(b.middle_rows),
            "lakes": [list(self.rc(s)) for s in sorted(self.lakes)],
            "formation_rows": [sorted(b.red_rows), sorted(b.blue_rows, reverse=True)],
            "back_rows": [max(b.red_rows), min(b.blue_rows)],
            "towers": self.towers,
        }


def build(model: PiecesModel) -> GameData:
    """Lookup tables from a validated model."""
    kinds = tuple(p.id for p in model.pieces)
    index = {k: i for i, k in enumerate(kinds)}
    strength = tuple(p.strength for p in model.pieces)
    beats = tuple(frozenset(index[b] for b in p.beats) for p in model.pieces)
    movable = tuple(p.movable for p in model.pieces)
    combat = []
    for a in range(len(kinds)):
        row = []
        for d in range(len(kinds)):
            if not movable[a] or model.pieces[a].big or model.pieces[d].big:
                row.append(-1)
            elif d in beats[a]:
                row.append(ATTACKER)
            elif a in beats[d] or strength[d] is None:
                row.append(DEFENDER)
            elif strength[a] > strength[d]:  # type: ignore[operator]
                row.append(ATTACKER)
            elif strength[a] < strength[d]:  # type: ignore[operator]
                row.append(DEFENDER)
            else:
                row.append(BOTH)
        combat.append(tuple(row))
    b = model.board
    cols, rows = b.columns, b.rows
    lakes = frozenset(r * cols + c for r, c in b.lakes_on_grid)
    adj = []
    for sq in range(rows * cols):
        r, c = divmod(sq, cols)
        out = []
        if sq not in lakes:
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and rr * cols + cc not in lakes:
                    out.append(rr * cols + cc)
        adj.append(tuple(out))
    red_rows = sorted(b.red_rows)
    blue_rows = sorted(b.blue_rows, reverse=True)
    formation = (
        tuple(tuple(r * cols + c for c in range(cols)) for r in red_rows),
        tuple(tuple(r * cols + c for c in reversed(range(cols))) for r in blue_rows),
    )
    small = tuple(i for i, p in enumerate(model.pieces) if not p.big)
    big = tuple(i for i, p in enumerate(model.pieces) if p.big)
    return GameData(
        model=model,
        kinds=kinds,
        index=index,
        small=small,
        big=big,
        strength=strength,
        movable=movable,
        counts=tuple(p.count for p in model.pieces),
        beats=beats,
        combat=tuple(combat),
        die_faces=tuple(index[f] for f in model.die_faces),
        flag=index[FLAG],
        black_knight=index[BLACK_KNIGHT],
        jester=index[JESTER],
        columns=cols,
        rows=rows,
        squares=rows * cols,
        lakes=lakes,
        middle=tuple(r * cols + c for r in b.middle_rows for c in range(cols) if r * cols + c not in lakes),
        adj=tuple(adj),
        formation=formation,
        formation_squares=(
            frozenset(s for row in formation[0] for s in row),
            frozenset(s for row in formation[1] for s in row),
        ),
        back_row=(formation[0][-1], formation[1][-1]),
        towers=b.towers_per_side,
        tower_order=(tuple(range(b.towers_per_side)), tuple(reversed(range(b.towers_per_side)))),
        small_pool=tuple(i for i in small for _ in range(model.pieces[i].count)),
    )


def parse_pieces(raw: Any, source: str = "<data>") -> GameData:
    """Validate an already-parsed file (``{"board": ..., "pieces": [...], "die_faces": [...]}``).

    :raises PiecesDataError: naming ``source`` and every schema problem.
    """
    try:
        model = PiecesModel.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in exc.errors()
        )
        raise PiecesDataError(f"invalid Stratego Junior data {source}: {problems}") from None
    return build(model)


def load_pieces(path: str | Path = PIECES_FILE) -> GameData:
    """Read and validate a pieces file.

    :raises PiecesDataError: unreadable YAML or a schema problem (the message names the file).
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PiecesDataError(f"cannot read Stratego Junior data {path}: {exc}") from None
    return parse_pieces(raw, str(path))


#: The packaged data.
DATA: GameData = load_pieces()


def catalog_entries(data: GameData = DATA) -> list[dict[str, Any]]:
    """The castle kinds for pages: ``[{"id", "strength", "count", "big", "movable", "beats",
    "on_die"}]`` in file order (``on_die``: faces of the Quest die showing it)."""
    return [
        {
            "id": p.id,
            "strength": p.strength,
            "count": p.count,
            "big": p.big,
            "movable": p.movable,
            "beats": list(p.beats),
            "on_die": list(data.model.die_faces).count(p.id),
        }
        for p in data.model.pieces
    ]
