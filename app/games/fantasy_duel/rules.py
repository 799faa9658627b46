"""Fantasy súboj rules engine (``rules/fantasy_duel.md``), on the engine kit (``app/games/core``).

Flow of a match (phases in :mod:`.state`):

1. Chance shuffles the shared deck (``{"shuffle": [cards]}``, secret); 3 cards are dealt to every
   seat, face up (spec 2).
2. Chance rolls one d6 per seat (``{"dice": [...]}``, public); the highest starts, tied seats
   re-roll (AMBIGUITY 15). Play goes in seat order from the first player.
3. A turn (spec 3): a Tactics player may take owed cards (``draw``/``defer``), then picks an
   attacker (``attacker``) and an enemy target (``target``, or ``back``); chance rolls the dice
   (``dice``); :mod:`.combat` resolves; a margin over 10 (or Kostej's Doom) lets the winner
   ``imprison`` or ``recruit`` (spec 4.7); losers draw replacements, Tactics players may
   ``defer`` them (spec 6); the active seat's poisoned units recover (5.5).
4. At the end of each round the stalemate guard counts and the top-up refills armies (spec 6).
5. With the deck empty, the game ends once at most one team has units (or 10 quiet rounds pass):
   final scoring (spec 7, 8).

Decisions taken where the spec is silent (the spec's own AMBIGUITIES are followed as written):

* Dealing: the opening 3 cards go to the seats one card at a time in seat order, from the top.
* Taunt/Tactics/Tracking in team mode follow the spec's section 8; a seat's *Tactics* exempts only
  its own attacks; Ally support and Tracking count only the attacker's own army.
* A player's owed draws (Tactics) are the cards missing from an army of 3: while the deck holds
  cards, every army without Tactics is kept at 3 by the replacement draws, so "owed" and "missing"
  are the same number; a top-up a Tactics player declines is owed in the same way.
* A Tactics player's replacement draw is asked once per lost unit (``replace``); a top-up asks it
  once per card, and ``defer`` there declines the rest of that top-up.
* ``back`` lets the active seat change its attacker before choosing a target (nothing is rolled;
  the others see the choice only in the view). The easy bot never uses it.
* The view (:mod:`.observe`) shows the attacking seat, in phase ``target``, the exact odds of each
  allowed target (issue 10); other viewers and bots get no odds (they are public facts anyone can
  compute, left out to keep eight-seat snapshots small). Prisons are shown as unit ids.
* A turn (each decision) defaults to 45 seconds (``default_turn_seconds``): a turn is two short
  choices, and eight seats must keep moving.
* Final scoring also ends the game when the deck runs out during a top-up or a draw and at most
  one team then has units.
* Results: the best team score wins; several teams on the best score draw; all others lose.
  Resigning: with two seats the other seat wins; with more seats the game goes on and the
  computer plays the seat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import BadOptions, IllegalAction
from ..core.rules import CHANCE, Event, Outcome
from ..core.state import evolve
from .actions import (
    CODEC,
    Attacker,
    Back,
    Defer,
    Dice,
    Draw,
    FantasyAction,
    Imprison,
    Recruit,
    Shuffle,
    Target,
)
from .combat import DEFEATED, POISONED, REPELLED, resolve
from .data import MAX_PACKS, PACK_SIZE, catalog_entries, unit_of
from .deck import draw, imprison, recruit, seat_has_tactics
from .observe import observe
from .state import (
    ARMY_SIZE,
    ATTACKER,
    CHANCE_PHASES,
    MUSTER,
    OVER,
    REPLACE,
    ROLL,
    SHUFFLE,
    SPOILS,
    START_ROLL,
    TARGET,
    TOPUP,
    Config,
    FantasyState,
    LastAttack,
    Round,
    Spoils,
    decode_state,
    encode_state,
    owner_of,
)
from .targeting import attack_dice, attack_matchup, targets
from .turns import after_attack, begin_round, end_turn, resume_after_topup, to_attack, wants_muster

JSON = Any

DRAW, DEFER, BACK, IMPRISON = Draw(), Defer(), Back(), Imprison()
_TWO_CHOICES: tuple[FantasyAction, ...] = (DRAW, DEFER)
#: one action value per card, made once (a table like the unit table), handed out by legal_actions
_ATTACKERS = tuple(Attacker(c) for c in range(MAX_PACKS * PACK_SIZE))
_TARGETS = tuple(Target(c) for c in range(MAX_PACKS * PACK_SIZE))
_RECRUITS = tuple(Recruit(c) for c in range(MAX_PACKS * PACK_SIZE))


def _roll(rng: random.Random, count: int) -> Dice:
    rand = rng.random
    return Dice(tuple(1 + int(6 * rand()) for _ in range(count)))


class FantasyDuel(BaseRules[FantasyState, FantasyAction]):
    """The Fantasy súboj rules (``rules/fantasy_duel.md``): 2-8 seats, free-for-all or teams.

    Actions: :mod:`.actions`. Events: codes and parameters only (:mod:`.deck`, :mod:`.turns` and
    here: ``deck_shuffled`` ``{"cards"}``, ``dealt`` ``{"armies": [[{"card", "unit"}]]}``,
    ``start_roll`` ``{"seats", "dice"}``, ``first_player`` ``{"seat"}``, ``attack_declared``
    ``{"seat", "attacker", "unit", "target_seat", "target", "target_unit", "dice"}``,
    ``attack_resolved`` (:meth:`~.state.LastAttack.to_json` plus ``"sum"`` of the dice), ``poisoned``
    ``{"seat", "card"}``, ``deferred`` ``{"seat", "reason"}``). All public: only the shuffle is
    secret.
    """

    name: ClassVar[str] = "fantasy_duel"
    title: ClassVar[str] = "Fantasy súboj"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    information: ClassVar[str] = "imperfect"
    default_turn_seconds: ClassVar[int] = 45
    actions = CODEC
    default_options: ClassVar[Mapping[str, JSON]] = {
        "packs": 1,
        "teams": [],
        "recruit_swap_prison": "winner",
        "poison_attacker_ignores_taunt_and_fire": False,
        "stalemate_rounds": 10,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"recruit_swap_prison": ("winner", "loser")}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {
        "packs": (1, MAX_PACKS),
        "stalemate_rounds": (1, 100),
    }
    #: ``teams``: one team number (0-7) per seat, or empty for every seat alone
    option_schemas: ClassVar[Mapping[str, Mapping[str, JSON]]] = {
        "teams": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 7}, "maxItems": 8},
    }
    conformance_variants: ClassVar[tuple[Mapping[str, JSON], ...]] = (
        {"packs": 2, "recruit_swap_prison": "loser", "poison_attacker_ignores_taunt_and_fire": True},
    )

    # ------------------------------------------------------------------ setup

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options; ``teams`` is renumbered in order of first
        appearance (``[1, 1, 0, 0]`` -> ``[0, 0, 1, 1]``).

        :raises BadOptions: unknown key, wrong type, a value out of range, or ``teams`` not a list of
            team numbers (``reason`` ``team_number``: ``low`` 0, ``high`` 7) for at most 8 seats
            (``team_seats``: ``max``, ``count``).
        """
        out = super().normalize_options(options)
        teams = out["teams"]
        if any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < self.max_players for t in teams):
            raise BadOptions(
                f"{self.name}: teams lists one team number (0-7) per seat, got {teams!r}",
                reason="team_number",
                params={"low": 0, "high": self.max_players - 1},
            )
        if len(teams) > self.max_players:
            raise BadOptions(
                f"{self.name}: teams names at most {self.max_players} seats, got {len(teams)}",
                reason="team_seats",
                params={"max": self.max_players, "count": len(teams)},
            )
        order: dict[int, int] = {}
        out["teams"] = [order.setdefault(t, len(order)) for t in teams]
        return out

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> FantasyState:
        """The chance node before the opening shuffle (spec 2).

        :raises BadOptions: ``num_players`` outside 2-8, bad options, ``teams`` not one entry per
            seat (``reason`` ``team_seats``: ``seats``, ``count``), a single team (``one_team``), or
            a deck too small for 3 cards a seat (``packs``: ``packs``, ``players``).
        """
        self.check_players(num_players)
        opts = self.normalize_options(options)
        teams = tuple(opts["teams"]) or tuple(range(num_players))
        if len(teams) != num_players:
            raise BadOptions(
                f"{self.name}: teams needs one entry per seat ({num_players}), got {len(teams)}",
                reason="team_seats",
                params={"seats": num_players, "count": len(teams)},
            )
        if len(set(teams)) < 2:
            raise BadOptions(f"{self.name}: team mode needs at least two teams, got {list(teams)}", reason="one_team")
        if opts["packs"] * PACK_SIZE < ARMY_SIZE * num_players:
            raise BadOptions(
                f"{self.name}: {opts['packs']} pack(s) cannot deal 3 units to {num_players} seats",
                reason="packs",
                params={"packs": opts["packs"], "players": num_players},
            )
        config = Config(
            packs=opts["packs"],
            teams=teams,
            recruit_swap_prison=opts["recruit_swap_prison"],
            poison_attacker_ignores_taunt_and_fire=opts["poison_attacker_ignores_taunt_and_fire"],
            stalemate_rounds=opts["stalemate_rounds"],
        )
        empty = ((),) * num_players
        return FantasyState(config=config, phase=SHUFFLE, deck=(), armies=empty, prisons=empty)

    # ------------------------------------------------------------------ who acts, what is legal

    def to_act(self, state: FantasyState) -> frozenset[int]:
        """``{CHANCE}`` in the shuffle, start roll and attack roll; the active seat in ``muster``,
        ``attacker`` and ``target``; ``actor`` in ``spoils``, ``replace`` and ``topup``; nobody
        when over."""
        phase = state.phase
        if phase in CHANCE_PHASES:
            return _CHANCE_ONLY
        if phase == OVER:
            return frozenset()
        return _SEAT_SETS[state.actor if state.actor >= 0 else state.active]

    def legal_actions(self, state: FantasyState, seat: int) -> Sequence[FantasyAction]:
        """``seat``'s legal actions now (empty unless it is to act): at most 4, or the targets
        plus ``back`` (at most 22)."""
        phase = state.phase
        if phase in CHANCE_PHASES or phase == OVER:
            return ()
        if seat != (state.actor if state.actor >= 0 else state.active):
            return ()
        if phase == ATTACKER:
            poisoned = state.poisoned
            return [_ATTACKERS[c] for c in state.armies[seat] if c not in poisoned]
        if phase == TARGET:
            return [*(_TARGETS[c] for c in targets(state, seat, state.attacker)), BACK]
        if phase == SPOILS:
            return [IMPRISON, *(_RECRUITS[c] for c in state.armies[seat])]
        return _TWO_CHOICES

    def is_legal(self, state: FantasyState, seat: int, action: FantasyAction) -> bool:
        """Membership in :meth:`legal_actions`."""
        return action in self.legal_actions(state, seat)

    def sample_chance(self, state: FantasyState, rng: random.Random) -> FantasyAction:
        """The shuffle (a random order of every card), the start roll (one die per rolling seat) or
        the attack's dice (own dice + Ally support).

        :raises IllegalAction: ``state`` is not a chance node.
        """
        if state.phase == SHUFFLE:
            order = list(range(state.config.packs * PACK_SIZE))
            rng.shuffle(order)
            return Shuffle(tuple(order))
        if state.phase == START_ROLL:
            return _roll(rng, len(state.round.rolling))
        if state.phase == ROLL:
            return _roll(rng, attack_dice(state, state.attacker))
        raise IllegalAction(f"{self.name}: phase {state.phase!r} is not a chance node")

    def action_visible_to(self, state: FantasyState, seat: int, action: FantasyAction) -> frozenset[int] | None:
        """The shuffle is secret (``frozenset()``); dice and every seat's choice are public."""
        return frozenset() if isinstance(action, Shuffle) else None

    # ------------------------------------------------------------------ apply

    def apply(self, state: FantasyState, actions: Mapping[int, FantasyAction]) -> tuple[FantasyState, list[Event]]:
        """Apply the action of the one seat (or chance) to act.

        :raises IllegalAction: the game is over, the wrong seat, or an action not legal now.
        """
        to_act = self.to_act(state)
        if not to_act:
            raise IllegalAction(f"{self.name}: the game is over")
        if len(actions) != 1 or next(iter(actions)) not in to_act:
            raise IllegalAction(f"{self.name}: expected an action from {sorted(to_act)}, got {sorted(actions)}")
        seat, action = next(iter(actions.items()))
        events: list[Event] = []
        handler = _HANDLERS[state.phase]
        return handler(self, state, seat, action, events), events

    def _illegal(self, state: FantasyState, action: FantasyAction) -> IllegalAction:
        return IllegalAction(f"{self.name}: {CODEC.encode(action)!r} is not legal in phase {state.phase!r}")

    def _on_shuffle(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        size = state.config.packs * PACK_SIZE
        if not isinstance(action, Shuffle) or sorted(action.order) != list(range(size)):
            raise IllegalAction(f"{self.name}: the shuffle must order the cards 0..{size - 1} once each")
        n = state.num_players
        dealt = ARMY_SIZE * n
        armies = tuple(action.order[s:dealt:n] for s in range(n))
        events.append(Event("deck_shuffled", {"cards": size}))
        events.append(Event("dealt", {"armies": [[{"card": c, "unit": unit_of(c).id} for c in a] for a in armies]}))
        return evolve(
            state, phase=START_ROLL, deck=action.order[dealt:], armies=armies, round=Round(rolling=tuple(range(n)))
        )

    def _on_start_roll(
        self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]
    ) -> FantasyState:
        rolling = state.round.rolling
        if not isinstance(action, Dice) or len(action.values) != len(rolling):
            raise IllegalAction(f"{self.name}: the start roll is one die per seat in {list(rolling)}")
        events.append(Event("start_roll", {"seats": list(rolling), "dice": list(action.values)}))
        top = max(action.values)
        tied = tuple(s for s, v in zip(rolling, action.values, strict=True) if v == top)
        if len(tied) > 1:
            return evolve(state, round=evolve(state.round, rolling=tied))
        events.append(Event("first_player", {"seat": tied[0]}))
        return begin_round(evolve(state, round=Round(first=tied[0])), events)

    def _on_muster(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        if action == DRAW:
            state = draw(state, seat, "muster", events)
            return state if wants_muster(state, seat) else to_attack(state, events)
        if action == DEFER:
            events.append(Event("deferred", {"seat": seat, "reason": "muster"}))
            return to_attack(state, events)
        raise self._illegal(state, action)

    def _on_attacker(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        if not isinstance(action, Attacker) or action.card not in state.armies[seat] or action.card in state.poisoned:
            raise self._illegal(state, action)
        return evolve(state, phase=TARGET, attacker=action.card)

    def _on_target(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        if action == BACK:
            return evolve(state, phase=ATTACKER, attacker=-1)
        if not isinstance(action, Target) or action.card not in targets(state, seat, state.attacker):
            raise self._illegal(state, action)
        events.append(
            Event(
                "attack_declared",
                {
                    "seat": seat,
                    "attacker": state.attacker,
                    "unit": unit_of(state.attacker).id,
                    "target_seat": owner_of(state, action.card),
                    "target": action.card,
                    "target_unit": unit_of(action.card).id,
                    "dice": attack_dice(state, state.attacker),
                },
            )
        )
        return evolve(state, phase=ROLL, target=action.card)

    def _on_roll(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        target_seat = owner_of(state, state.target)
        m = attack_matchup(state, state.attacker, state.target, target_seat)
        if not isinstance(action, Dice) or len(action.values) != m.dice:
            raise IllegalAction(f"{self.name}: this attack rolls {m.dice} dice")
        values = action.values
        dice_sum = sum(values)
        verdict = resolve(m, dice_sum, min(values))
        active = state.active
        last = LastAttack(
            active,
            state.attacker,
            target_seat,
            state.target,
            values,
            verdict.total,
            verdict.defence,
            verdict.result,
            verdict.margin,
            m.doom,
        )
        events.append(
            Event(
                "attack_resolved",
                {
                    "seat": active,
                    "attacker": state.attacker,
                    "target_seat": target_seat,
                    "target": state.target,
                    "dice": list(values),
                    "sum": dice_sum,
                    "total": verdict.total,
                    "defence": verdict.defence,
                    "result": verdict.result,
                    "margin": verdict.margin,
                    "doom": m.doom,
                },
            )
        )
        if verdict.result == POISONED:
            events.append(Event("poisoned", {"seat": target_seat, "card": state.target}))
            return end_turn(evolve(state, last=last, poisoned=state.poisoned | {state.target}), events)
        if verdict.result == DEFEATED:
            winner, loser, card = active, target_seat, state.target
        elif verdict.result == REPELLED:
            winner, loser, card = target_seat, active, state.attacker
        else:
            return end_turn(evolve(state, last=last), events)
        if verdict.choice:
            return evolve(
                state, phase=SPOILS, actor=winner, spoils=Spoils(winner, loser, card, verdict.margin), last=last
            )
        had = seat_has_tactics(state, loser)
        state = imprison(state, loser, card, winner, events, last=last)
        return after_attack(state, loser, ((loser, had),), events)

    def _on_spoils(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        spoils = state.spoils
        assert spoils is not None
        winner, loser = spoils.winner, spoils.loser
        had = ((loser, seat_has_tactics(state, loser)), (winner, seat_has_tactics(state, winner)))
        state = evolve(state, spoils=None, actor=-1)
        if action == IMPRISON:
            state = imprison(state, loser, spoils.card, winner, events)
        elif isinstance(action, Recruit) and action.card in state.armies[winner]:
            prison = winner if state.config.recruit_swap_prison == "winner" else loser
            state = recruit(state, winner, loser, spoils.card, action.card, prison, events)
        else:
            raise self._illegal(evolve(state, spoils=spoils), action)
        return after_attack(state, loser, had, events)

    def _on_replace(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        if action == DRAW:
            state = draw(state, seat, "replace", events)
        elif action == DEFER:
            events.append(Event("deferred", {"seat": seat, "reason": "replace"}))
        else:
            raise self._illegal(state, action)
        return end_turn(evolve(state, actor=-1), events)

    def _on_topup(self, state: FantasyState, seat: int, action: FantasyAction, events: list[Event]) -> FantasyState:
        if action == DRAW:
            state = draw(state, seat, "topup", events)
        elif action == DEFER:
            events.append(Event("deferred", {"seat": seat, "reason": "topup"}))
            state = evolve(state, round=evolve(state.round, topup_declined=state.round.topup_declined | {seat}))
        else:
            raise self._illegal(state, action)
        rnd = evolve(state.round, topup_cursor=state.round.topup_cursor + 1)
        return resume_after_topup(evolve(state, actor=-1, round=rnd), events)

    # ------------------------------------------------------------------ end, views, JSON

    def outcome(self, state: FantasyState) -> Outcome | None:
        """The result once over (final scoring, spec 7), else ``None``."""
        return state.outcome

    def resign(self, state: FantasyState, seat: int) -> Outcome | None:
        """Two seats: the other seat wins. More seats (teams included): ``None``, the game goes on
        and the computer plays the seat (the spec keeps every army on the table)."""
        if state.num_players == 2:
            return Outcome.resignation(seat, 2, state.config.teams)
        return None

    def observe(self, state: FantasyState, viewer: int | None) -> dict[str, JSON]:
        """The table as ``viewer`` sees it (:func:`.observe.observe`); never the deck order."""
        return observe(state, viewer)

    def observe_finished(self, state: FantasyState, viewer: int | None) -> dict[str, JSON]:
        """:meth:`observe` plus ``"deck": [cards]``, the deck order (top first): the match has
        ended, so nothing is secret any more (the seed that shuffled it is public too)."""
        return {**observe(state, viewer), "deck": list(state.deck)}

    def bot_observation(self, state: FantasyState, seat: int) -> dict[str, JSON]:
        """:meth:`observe` without the odds (a bot computes the odds it needs; everything a seat
        could remember is on the table already)."""
        return observe(state, seat, with_odds=False)

    def secrets(self, state: FantasyState, viewer: int | None) -> list[str]:
        """The deck order, as the state stores it (``'"deck": [cards]'``), while it holds 2 cards
        or more: nobody may see it, the viewer included. Armies and prisons are public."""
        if len(state.deck) < 2:
            return []
        return [f'"deck": {json.dumps(list(state.deck))}']

    def catalog(self) -> dict[str, JSON]:
        """The unit list for the rules pages: ``{"units": [...]}`` (:func:`.data.catalog_entries`)."""
        return {"units": catalog_entries()}

    def encode_state(self, state: FantasyState) -> JSON:
        """The whole state as JSON (:func:`.state.encode_state`; holds the deck order)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> FantasyState:
        """Inverse of :meth:`encode_state`.

        :raises BadAction: not a stored state.
        """
        return decode_state(obj)


_CHANCE_ONLY = frozenset({CHANCE})
_SEAT_SETS = tuple(frozenset({seat}) for seat in range(FantasyDuel.max_players))

_Handler = Callable[[FantasyDuel, FantasyState, int, FantasyAction, list[Event]], FantasyState]
_HANDLERS: dict[str, _Handler] = {
    SHUFFLE: FantasyDuel._on_shuffle,
    START_ROLL: FantasyDuel._on_start_roll,
    MUSTER: FantasyDuel._on_muster,
    ATTACKER: FantasyDuel._on_attacker,
    TARGET: FantasyDuel._on_target,
    ROLL: FantasyDuel._on_roll,
    SPOILS: FantasyDuel._on_spoils,
    REPLACE: FantasyDuel._on_replace,
    TOPUP: FantasyDuel._on_topup,
}
