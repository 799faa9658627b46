"""Treasure Beasts state values (``rules/treasure_beasts.md`` section 14): the match options, a
creature on the field, a player, a pending attack and the whole immutable :class:`State`, with
their JSON forms and the small helpers that make a changed copy (the kit's :func:`evolve`).

Indices: seats are ``0..num_players-1`` in turn order (seat 0 plays first); zones are the ints of
:data:`~.data.ZONES` (0 Start, 1 Bushes, 2 Center); a creature is named by its ``uid``, given when
it comes onto the field and never reused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.rules import Outcome
from ..core.state import evolve

JSON = Any

# phases
DEAL = "deal"  #: chance shuffles the deck (then six cards are dealt to each seat)
DRAFT = "draft"  #: every seat picks one card of its pack at the same time (section 3.5)
MAIN = "main"  #: the active seat's main phase (sections 4-8)
ATTACK = "attack"  #: the active seat builds an attack on a declared target (section 9.1)
LOSSES = "losses"  #: the target's owner picks which attackers are destroyed (section 9.2)
DISCARD = "discard"  #: the active seat discards down to the hand limit (section 4.4)
RESHUFFLE = "reshuffle"  #: chance shuffles the discard into a new deck (AMBIGUITY 19)
OVER = "over"
PHASES = (DEAL, DRAFT, MAIN, ATTACK, LOSSES, DISCARD, RESHUFFLE, OVER)

# creature action kinds, as bits of Creature.used (section 6.3)
TAKE, ATTACKED, THEFT, ACTIVATED = 1, 2, 4, 8
USED_NAMES = (("take", TAKE), ("attack", ATTACKED), ("theft", THEFT), ("activated", ACTIVATED))

NO_HOST = -1
UNLIMITED = -1  #: ``State.center`` when the central pool is unlimited


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (see ``TreasureBeasts.default_options``).

    :param center_treasure: size of the central pool, or :data:`UNLIMITED` (AMBIGUITY 3).
    :param turn_ends_at_zero_ap: the turn ends when the last AP is spent (AMBIGUITY 2).
    :param one_total: a creature takes one creature action per turn in all (``creature_actions:
        one_total``) instead of one of each kind (AMBIGUITY 4).
    :param threat_global: Threat blocks every interaction of the opponents (``threat_scope:
        global``) instead of protecting its owner only (AMBIGUITY 11).
    :param max_rounds: the game ends after this many rounds (0: never; see the package docstring).
    """

    center_treasure: int = UNLIMITED
    turn_ends_at_zero_ap: bool = True
    one_total: bool = False
    threat_global: bool = False
    max_rounds: int = 40


@dataclass(frozen=True, slots=True)
class Creature:
    """A creature card on the field.

    :param zone: 0 Start, 1 Bushes, 2 Center (an attached creature's is its host's).
    :param ready: upright (else tired).
    :param fresh: came onto the field this turn of its owner: it may not move or be re-attached.
    :param moves: moves made this turn.
    :param used: creature actions used this turn, bits :data:`TAKE` | :data:`ATTACKED` | ...
    :param host: uid of the creature it is attached to, or :data:`NO_HOST`.
    :param reattached: re-attached this turn.
    """

    uid: int
    card: str
    owner: int
    zone: int
    ready: bool = True
    fresh: bool = True
    moves: int = 0
    used: int = 0
    host: int = NO_HOST
    reattached: bool = False


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: treasury, hand (in the order drawn), draft pack, and elimination.

    :param eliminated: 0 while playing, else the turn number at whose end the seat went out.
    """

    treasury: int
    hand: tuple[str, ...] = ()
    pack: tuple[str, ...] = ()
    eliminated: int = 0


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack being built or resolved (section 9).

    :param target: the defending creature's uid.
    :param attackers: uids in the order they joined.
    :param strengths: each attacker's strength at the strike (empty until the strike).
    :param defence: the target's strength at the strike (its damage budget).
    :param budget: what is left of the budget while the defender picks losses.
    :param lost: attackers picked to be destroyed so far.
    :param destroyed: the target is destroyed (sum of strengths >= its strength).
    """

    target: int
    attackers: tuple[int, ...] = ()
    strengths: tuple[int, ...] = ()
    defence: int = 0
    budget: int = 0
    lost: tuple[int, ...] = ()
    destroyed: bool = False


@dataclass(frozen=True, slots=True)
class State:
    """An immutable Treasure Beasts position.

    :param phase: one of :data:`PHASES`; ``resume`` is the phase to return to after a reshuffle.
    :param players: per seat.
    :param creatures: every creature on the field, by uid.
    :param deck: top first (secret); ``discard``: oldest first (public).
    :param center: the central pool, or :data:`UNLIMITED`.
    :param active: the seat whose turn it is; ``ap`` its action points.
    :param turn: turns started so far (1 = the first player's first turn); ``draft_round`` picks made.
    :param owed: per seat, cards still to draw once the discard is reshuffled.
    :param outcome: the result once over.
    """

    config: Config
    num_players: int
    phase: str
    players: tuple[Player, ...]
    creatures: tuple[Creature, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    center: int = UNLIMITED
    active: int = 0
    ap: int = 0
    turn: int = 0
    draft_round: int = 0
    next_uid: int = 1
    attack: Attack | None = None
    owed: tuple[int, ...] = ()
    resume: str = MAIN
    outcome: Outcome | None = None

    def creature(self, uid: int) -> Creature | None:
        """The creature ``uid`` on the field, or ``None``."""
        for c in self.creatures:
            if c.uid == uid:
                return c
        return None

    def alive(self) -> list[int]:
        """Seats not eliminated, in seat order."""
        return [s for s, p in enumerate(self.players) if not p.eliminated]


def with_player(state: State, seat: int, **changes: Any) -> State:
    """``state`` with ``seat``'s :class:`Player` changed."""
    players = list(state.players)
    players[seat] = evolve(players[seat], **changes)
    return evolve(state, players=tuple(players))


def with_creature(state: State, uid: int, **changes: Any) -> State:
    """``state`` with creature ``uid`` changed (unchanged when it is not on the field)."""
    return evolve(state, creatures=tuple(evolve(c, **changes) if c.uid == uid else c for c in state.creatures))


def with_creatures(state: State, changes: Mapping[int, Mapping[str, Any]]) -> State:
    """``state`` with several creatures changed: ``{uid: {field: value}}``."""
    return evolve(
        state, creatures=tuple(evolve(c, **changes[c.uid]) if c.uid in changes else c for c in state.creatures)
    )


def treasury(state: State, seat: int) -> int:
    """``seat``'s treasure."""
    return state.players[seat].treasury


def opponents(state: State, seat: int) -> list[int]:
    """``seat``'s opponents still playing, in turn order after ``seat`` (AMBIGUITY 18: no teams)."""
    n = state.num_players
    return [(seat + k) % n for k in range(1, n) if not state.players[(seat + k) % n].eliminated]


def turn_order(state: State, first: int) -> list[int]:
    """Seats still playing in turn order starting at ``first``."""
    n = state.num_players
    return [(first + k) % n for k in range(n) if not state.players[(first + k) % n].eliminated]


# ----------------------------------------------------------------------------------------- JSON


def encode_state(state: State) -> JSON:
    """The whole state as JSON (holds the hidden deck and hands: storage only)."""
    c = state.config
    return {
        "config": {
            "center_treasure": c.center_treasure,
            "turn_ends_at_zero_ap": c.turn_ends_at_zero_ap,
            "one_total": c.one_total,
            "threat_global": c.threat_global,
            "max_rounds": c.max_rounds,
        },
        "num_players": state.num_players,
        "phase": state.phase,
        "players": [
            {"treasury": p.treasury, "hand": list(p.hand), "pack": list(p.pack), "eliminated": p.eliminated}
            for p in state.players
        ],
        "creatures": [
            [x.uid, x.card, x.owner, x.zone, x.ready, x.fresh, x.moves, x.used, x.host, x.reattached]
            for x in state.creatures
        ],
        "deck": list(state.deck),
        "discard": list(state.discard),
        "center": state.center,
        "active": state.active,
        "ap": state.ap,
        "turn": state.turn,
        "draft_round": state.draft_round,
        "next_uid": state.next_uid,
        "attack": None if state.attack is None else _encode_attack(state.attack),
        "owed": list(state.owed),
        "resume": state.resume,
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def _encode_attack(a: Attack) -> JSON:
    return {
        "target": a.target,
        "attackers": list(a.attackers),
        "strengths": list(a.strengths),
        "defence": a.defence,
        "budget": a.budget,
        "lost": list(a.lost),
        "destroyed": a.destroyed,
    }


def _ints(values: Iterable[Any]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def decode_state(obj: JSON) -> State:
    """Inverse of :func:`encode_state`.

    :raises KeyError, TypeError, ValueError: not a state's JSON.
    """
    a = obj["attack"]
    return State(
        config=Config(**obj["config"]),
        num_players=int(obj["num_players"]),
        phase=str(obj["phase"]),
        players=tuple(
            Player(int(p["treasury"]), tuple(p["hand"]), tuple(p["pack"]), int(p["eliminated"])) for p in obj["players"]
        ),
        creatures=tuple(
            Creature(int(u), str(card), int(o), int(z), bool(r), bool(f), int(m), int(used), int(h), bool(re))
            for u, card, o, z, r, f, m, used, h, re in obj["creatures"]
        ),
        deck=tuple(obj["deck"]),
        discard=tuple(obj["discard"]),
        center=int(obj["center"]),
        active=int(obj["active"]),
        ap=int(obj["ap"]),
        turn=int(obj["turn"]),
        draft_round=int(obj["draft_round"]),
        next_uid=int(obj["next_uid"]),
        attack=None
        if a is None
        else Attack(
            int(a["target"]),
            _ints(a["attackers"]),
            _ints(a["strengths"]),
            int(a["defence"]),
            int(a["budget"]),
            _ints(a["lost"]),
            bool(a["destroyed"]),
        ),
        owed=_ints(obj["owed"]),
        resume=str(obj["resume"]),
        outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
    )
