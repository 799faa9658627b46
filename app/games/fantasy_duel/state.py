"""Fantasy súboj state: the match options a state carries, the position, and their JSON form
(``rules/fantasy_duel.md`` sections 2-8).

A state is a frozen slotted dataclass changed only with :func:`app.games.core.evolve`; every field
is part of the value (compared, hashed, serialised), nothing is cached on it. Cards are numbers
(:mod:`.data`): ``armies[s]`` are seat ``s``'s units face up on the table, ``prisons[s]`` the cards
in its prison, ``deck`` the shared deck top first (the only secret), ``poisoned`` the poisoned
cards on the table (spec 5.5).

Phases (who acts):

=============  ========  ======================================================================
phase          to act    meaning
=============  ========  ======================================================================
``shuffle``    chance    the opening shuffle; then 3 cards are dealt to every seat (spec 2)
``start_roll`` chance    one d6 per seat in ``rolling``; the highest starts, ties re-roll (AMB. 15)
``muster``     active    a Tactics player may take owed cards before attacking (spec 3.1, 5.8)
``attacker``   active    choose the attacking unit (spec 4.1)
``target``     active    choose the attacked unit, or go back
``roll``       chance    the attack's dice (spec 4.2)
``spoils``     ``actor`` the winner of a margin over 10 imprisons or recruits (spec 4.7)
``replace``    ``actor`` a Tactics player who lost a unit draws its replacement or defers (spec 6)
``topup``      ``actor`` a Tactics player in the end-of-round top-up draws or declines (spec 6)
``over``       nobody    final scoring done; ``outcome`` is set (spec 7)
=============  ========  ======================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.errors import BadAction
from ..core.rules import Outcome

JSON = Any

ARMY_SIZE = 3  #: the maximum army, and the opening deal (spec 2, 6)

SHUFFLE = "shuffle"
START_ROLL = "start_roll"
MUSTER = "muster"
ATTACKER = "attacker"
TARGET = "target"
ROLL = "roll"
SPOILS = "spoils"
REPLACE = "replace"
TOPUP = "topup"
OVER = "over"
PHASES = (SHUFFLE, START_ROLL, MUSTER, ATTACKER, TARGET, ROLL, SPOILS, REPLACE, TOPUP, OVER)
#: phases where chance acts
CHANCE_PHASES = frozenset({SHUFFLE, START_ROLL, ROLL})
#: phases where the active seat acts (the others name their seat in ``actor``)
ACTIVE_PHASES = frozenset({MUSTER, ATTACKER, TARGET})


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (``FantasyDuel.default_options``).

    :param packs: packs mixed into the deck (spec 1).
    :param teams: per seat, its team numbered from 0 in order of first appearance (free-for-all:
        every seat its own team; spec 8).
    :param recruit_swap_prison: whose prison takes the unit swapped out by a recruit,
        ``"winner"`` or ``"loser"`` (AMBIGUITY 1).
    :param poison_attacker_ignores_taunt_and_fire: the alternative reading of AMBIGUITY 4.
    :param stalemate_rounds: quiet full rounds after the deck ran out that end the game (AMB. 12).
    """

    packs: int
    teams: tuple[int, ...]
    recruit_swap_prison: str = "winner"
    poison_attacker_ignores_taunt_and_fire: bool = False
    stalemate_rounds: int = 10

    @property
    def team_mode(self) -> bool:
        """Whether some seats share a team."""
        return len(set(self.teams)) < len(self.teams)

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (``teams`` is ``[]`` in free-for-all)."""
        return {
            "packs": self.packs,
            "teams": list(self.teams) if self.team_mode else [],
            "recruit_swap_prison": self.recruit_swap_prison,
            "poison_attacker_ignores_taunt_and_fire": self.poison_attacker_ignores_taunt_and_fire,
            "stalemate_rounds": self.stalemate_rounds,
        }


@dataclass(frozen=True, slots=True)
class Spoils:
    """A unit defeated with a margin over 10 (or by Kostej's Doom), waiting for its winner's
    choice (spec 4.7).

    :param winner: the seat that chooses; ``loser``: the seat that lost ``card``.
    :param card: the defeated unit (still in the loser's army until the choice).
    :param margin: the winning margin (may be small or negative after Kostej's Doom).
    """

    winner: int
    loser: int
    card: int
    margin: int


class LastAttack(NamedTuple):
    """The last resolved attack, for the table view (spec 4). (A named tuple: one is made on every
    attack, and a tuple is made faster than a frozen dataclass.)

    :param result: ``"defeated"`` (the target), ``"repelled"`` (the attacker is defeated),
        ``"hidden"``, ``"tie"`` or ``"poisoned"``.
    :param total: the attack total; ``defence``: the effective defence; ``margin``: their
        difference (positive for the winner, 0 when nothing happened).
    """

    seat: int
    attacker: int
    target_seat: int
    target: int
    dice: tuple[int, ...]
    total: int
    defence: int
    result: str
    margin: int
    doom: bool

    def to_json(self) -> dict[str, JSON]:
        """``{"seat", "attacker", "target_seat", "target", "dice", "total", "defence", "result",
        "margin", "doom"}``."""
        return {
            "seat": self.seat,
            "attacker": self.attacker,
            "target_seat": self.target_seat,
            "target": self.target,
            "dice": list(self.dice),
            "total": self.total,
            "defence": self.defence,
            "result": self.result,
            "margin": self.margin,
            "doom": self.doom,
        }

    @classmethod
    def from_json(cls, obj: dict[str, JSON]) -> LastAttack:
        """Inverse of :meth:`to_json`."""
        return cls(**{**obj, "dice": tuple(obj["dice"])})


@dataclass(frozen=True, slots=True)
class Round:
    """Round bookkeeping, changed about once a round (kept apart so a turn's state changes copy
    few fields).

    :param number: rounds begun (1 = the first; 0 before the start roll is decided).
    :param first: the start-roll winner, who begins every round (-1 before).
    :param rolling: seats still in the start roll (phase ``start_roll``).
    :param began_empty: this round began with the deck empty (AMBIGUITY 18).
    :param quiet: no unit has left any army during this round.
    :param quiet_rounds: consecutive quiet full rounds counted by the stalemate guard (AMB. 12).
    :param topup_cursor: position in the end-of-round top-up (pass * seats + step from ``first``).
    :param topup_declined: Tactics seats that declined the rest of this top-up.
    """

    number: int = 0
    first: int = -1
    rolling: tuple[int, ...] = ()
    began_empty: bool = False
    quiet: bool = True
    quiet_rounds: int = 0
    topup_cursor: int = 0
    topup_declined: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class FantasyState:
    """An immutable Fantasy súboj position. Tuples indexed by seat.

    :param config: the match options.
    :param phase: one of :data:`PHASES`.
    :param deck: the shared deck, top first (secret).
    :param armies: each seat's units on the table, in the order they arrived.
    :param prisons: each seat's prison, oldest first (public: every card went there face up).
    :param poisoned: poisoned cards on the table (spec 5.5).
    :param active: the seat whose turn it is (-1 before the start roll is decided).
    :param actor: the seat that decides in ``spoils``, ``replace`` and ``topup``; -1 otherwise.
    :param attacker: the chosen attacking card (phases ``target``, ``roll``), else -1.
    :param target: the chosen target card (phase ``roll``), else -1.
    :param spoils: the pending recruit choice (phase ``spoils``).
    :param round: the round bookkeeping (:class:`Round`).
    :param last: the last resolved attack.
    :param outcome: the result once over.
    """

    config: Config
    phase: str
    deck: tuple[int, ...]
    armies: tuple[tuple[int, ...], ...]
    prisons: tuple[tuple[int, ...], ...]
    poisoned: frozenset[int] = frozenset()
    active: int = -1
    actor: int = -1
    attacker: int = -1
    target: int = -1
    spoils: Spoils | None = None
    round: Round = Round()
    last: LastAttack | None = None
    outcome: Outcome | None = None

    @property
    def num_players(self) -> int:
        """Seats (2-8)."""
        return len(self.armies)


def owner_of(state: FantasyState, card: int) -> int:
    """The seat whose army holds ``card``, or -1."""
    for seat, army in enumerate(state.armies):
        if card in army:
            return seat
    return -1


def encode_state(state: FantasyState) -> JSON:
    """The whole state as JSON (holds the secret deck order: storage only)."""
    spoils, rnd = state.spoils, state.round
    return {
        "config": {**state.config.to_json(), "teams": list(state.config.teams)},
        "phase": state.phase,
        "deck": list(state.deck),
        "armies": [list(a) for a in state.armies],
        "prisons": [list(p) for p in state.prisons],
        "poisoned": sorted(state.poisoned),
        "active": state.active,
        "actor": state.actor,
        "attacker": state.attacker,
        "target": state.target,
        "spoils": None if spoils is None else [spoils.winner, spoils.loser, spoils.card, spoils.margin],
        "round": {
            "number": rnd.number,
            "first": rnd.first,
            "rolling": list(rnd.rolling),
            "began_empty": rnd.began_empty,
            "quiet": rnd.quiet,
            "quiet_rounds": rnd.quiet_rounds,
            "topup_cursor": rnd.topup_cursor,
            "topup_declined": sorted(rnd.topup_declined),
        },
        "last": None if state.last is None else state.last.to_json(),
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def decode_state(obj: JSON) -> FantasyState:
    """Inverse of :func:`encode_state`.

    :raises BadAction: not the shape :func:`encode_state` writes.
    """
    try:
        cfg, spoils, rnd = obj["config"], obj["spoils"], obj["round"]
        return FantasyState(
            config=Config(
                packs=int(cfg["packs"]),
                teams=tuple(cfg["teams"]),
                recruit_swap_prison=cfg["recruit_swap_prison"],
                poison_attacker_ignores_taunt_and_fire=bool(cfg["poison_attacker_ignores_taunt_and_fire"]),
                stalemate_rounds=int(cfg["stalemate_rounds"]),
            ),
            phase=obj["phase"],
            deck=tuple(obj["deck"]),
            armies=tuple(tuple(a) for a in obj["armies"]),
            prisons=tuple(tuple(p) for p in obj["prisons"]),
            poisoned=frozenset(obj["poisoned"]),
            active=obj["active"],
            actor=obj["actor"],
            attacker=obj["attacker"],
            target=obj["target"],
            spoils=None if spoils is None else Spoils(*spoils),
            round=Round(
                number=rnd["number"],
                first=rnd["first"],
                rolling=tuple(rnd["rolling"]),
                began_empty=rnd["began_empty"],
                quiet=rnd["quiet"],
                quiet_rounds=rnd["quiet_rounds"],
                topup_cursor=rnd["topup_cursor"],
                topup_declined=frozenset(rnd["topup_declined"]),
            ),
            last=None if obj["last"] is None else LastAttack.from_json(obj["last"]),
            outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadAction(f"fantasy_duel: not a stored state: {exc}") from None
