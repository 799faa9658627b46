// The words of the pages for the codes the server sends: errors (HTTP bodies and websocket
// `error` frames: {code, message, params}), the match log's entry kinds, why a match ended, and
// the games' log and result lines. The server sends codes and parameters; `message` is English for
// developers and is shown only for a code this table does not know.
//
// One table, `WORDS` (English, the source), key -> template. An error's key is "error.<code>", or
// "error.<code>.<reason>" when its params carry a `reason` that has an entry of its own. A template is
//   - a string with {name} placeholders filled from the params ("Passwords need at least {min} characters."),
//   - or a list of such strings, most specific first: the first whose placeholders are all in the
//     params is used, so "You already have {count} matches waiting" falls back to a sentence
//     without the number when the server did not send `count`,
//   - or a plural object {"one": ..., "few": ..., "many": ..., "other": ...} chosen by the number
//     `params.count` with the language's CLDR rule (Intl.PluralRules); English needs one/other,
//     Czech and Slovak one/few/many/other, Ukrainian and Russian one/few/many/other, Hungarian
//     one/other. Each form is a string or a list as above.
//
// Translations: static/i18n/<locale>.json, the same keys, inlined by the server in every page
// (templates/base.html, #i18n-words) and used from the start; keys a language lacks fall back to
// English. Keep WORDS JSON-shaped (double quotes, whole-line // comments): app/i18n/catalogs.py
// reads it for the checks in tests/i18n/. How to add a string or a language: docs/i18n.md.
//
// {message} in an error template is the server's English sentence. Only two codes use it, for
// reasons the rules engines do not yet send as codes: bad_deck (why a deck breaks the game's
// rules) and bad_options (which option or seat is refused); a translated table can leave it out.

/** English, the default table. Keys: "error.<code>", "log.<kind>", "reason.<reason>", "br.step.<code>". */
export const WORDS = {
  // ---------------------------------------------------------------- errors
  // (params as app/errors.py's ErrorCode documents them)
  "error.stale_version": "The match moved on before your move arrived. Here is the new position; please choose again.",
  "error.not_your_turn": "It is not your turn.",
  "error.illegal_action": "That move is not allowed.",
  "error.bad_message": ["That message was not understood (“{field}”).", "That message was not understood."],
  "error.game_over": "The match is over.",
  "error.too_late": "Your time had run out before your move arrived; the computer played for you.",
  "error.rate_limited": ["Slow down: try again in {retry_after} seconds.", "Slow down: too many messages."],
  "error.busy": ["The server is busy; nothing changed. Try again in {retry_after} seconds.", "The server is busy; nothing changed. Try again."],
  "error.unauthorized": "You are not allowed to do that here. Are you logged in?",
  "error.forbidden": "You are not allowed to do that.",
  "error.not_found": [
    "There is no match {match_id}.", "There is no game “{game}”.", "There is no clan “{tag}”.",
    "There is no player called “{name}”.",
    "That saved deck does not exist (any more).",
    "This does not exist (any more).",
  ],
  "error.not_started": "The match has not started yet: waiting for players.",
  "error.not_waiting": "This match is no longer waiting for players.",
  "error.match_full": "This match has no free seat left.",
  "error.already_joined": "You already have a seat in this match.",
  "error.rated_needs_consent": "This rated match would put a bot account against a person. Join only if you agree to play it rated.",
  "error.too_many_matches": [
    "You already have {limit} matches waiting for players; cancel one first.",
    "You already have too many matches waiting for players; cancel one first.",
  ],
  "error.not_finished": "The replay opens when the match is over.",
  "error.bad_options": ["These match settings are not accepted: {message}.", "These match settings are not accepted."],
  "error.validation_error": ["Something in the form is not right (“{field}”).", "Something in the form is not right."],
  "error.name_taken": [
    "The name “{name}” is taken: choose another one.", "The tag “{tag}” is taken: choose another one.",
    "That name is taken: choose another one.",
  ],
  "error.bad_name": "That name is not allowed.",
  "error.bad_name.length": ["A name has {min} to {max} characters; this one has {length}.", "That name is too short or too long."],
  "error.bad_name.characters": "A name holds letters, digits, '_' and '-' only.",
  "error.bad_name.lookalike": ["That name looks too much like {name}: it mixes letters of different alphabets.", "That name looks too much like another player's."],
  "error.weak_password": "Choose a stronger password.",
  "error.weak_password.too_short": ["Passwords need at least {min} characters.", "That password is too short."],
  "error.weak_password.too_long": ["Passwords can have at most {max} characters.", "That password is too long."],
  "error.weak_password.repeated": "A password cannot be one character repeated.",
  "error.weak_password.same_as_name": "A password cannot be the same as the name.",
  "error.bad_credentials": "Wrong name or password.",
  "error.bad_deck": ["The rules do not allow this deck: {message}.", "The rules do not allow this deck."],
  "error.too_many_decks": ["You already have {limit} saved decks; delete one first.", "You have too many saved decks; delete one first."],
  "error.too_many_tokens": ["You already have {limit} API tokens; revoke one first.", "You have too many API tokens; revoke one first."],
  "error.too_many_connections": [
    "Too many open connections ({limit} per {per}); close another tab.", "Too many open connections; close another tab.",
  ],
  "error.unsupported_media_type": "The server only accepts JSON here.",
  // clans (app/clans/service.py lists the reasons)
  "error.forbidden.not_member": "Only the clan's players may do that.",
  "error.forbidden.not_officer": "Only the clan's leader or an officer may do that.",
  "error.forbidden.not_leader": "Only the clan's leader may do that.",
  "error.forbidden.not_invited": "This invitation is for another player.",
  "error.forbidden.rank": "An officer may remove members only.",
  "error.not_found.invitation": "That invitation or request is gone: it was answered or withdrawn.",
  "error.conflict.already_in_clan": ["{name} is in a clan already.", "You are in a clan already: leave it first."],
  "error.conflict.clan_full": ["The clan has its {limit} players already.", "The clan is full."],
  "error.conflict.already_invited": "The clan has invited this player already.",
  "error.conflict.already_requested": "This player has asked to join already: accept the request.",
  "error.conflict.leader_must_hand_over": "Hand the leadership over to another player before you leave.",
  "error.conflict.already_officer": "This player is an officer already.",
  "error.conflict.not_officer": "This player is not an officer.",
  "error.conflict.self": "You cannot do that to yourself.",
  "error.conflict.concurrent_change": "Someone changed the clan at the same moment; please try again.",
  // tournaments (app/tournaments/service.py lists the reasons)
  "error.forbidden.not_master": "Only a Master (or a higher rank) or an administrator may organise a tournament.",
  "error.forbidden.not_organiser": "Only the tournament's organiser may start it early.",
  "error.conflict.not_registering": "This tournament has started (or is over): registration is closed.",
  "error.conflict.full": ["The tournament is full: it takes {max_players} players.", "The tournament is full."],
  "error.conflict.already_registered": "You are registered already.",
  "error.conflict.not_in_clan": "This tournament is for one clan's players only.",
  "error.conflict.checkin_not_open": "Check-in opens an hour before the start.",
  "error.conflict.not_running": "This tournament is over.",
  "error.conflict.already_withdrawn": "You are no longer playing in this tournament.",
  "tournament.confirm.withdraw": "Withdraw your registration?",
  "tournament.confirm.withdraw_running": "Withdraw from the tournament? You forfeit your current match and every round left.",
  "tournament.confirm.start": "Start the tournament now, with the players checked in?",
  // clan challenges (app/clans/challenges/service.py lists the reasons)
  "error.not_found.challenge": "That challenge does not exist.",
  "error.not_found.board": ["The challenge has no board {board}.", "The challenge has no such board."],
  "error.not_found.member": ["“{name}” is not a player of that clan.", "That player is not in this clan (any more)."],
  "error.conflict.same_clan": "A clan cannot challenge itself.",
  "error.conflict.too_many_challenges": [
    "These two clans already have {limit} open challenges; finish one first.",
    "These two clans already have too many open challenges.",
  ],
  "error.conflict.not_proposed": "This challenge has been answered already.",
  "error.conflict.not_accepted": "Players are named once the challenge is accepted and until it is over.",
  "error.conflict.deadline_passed": "The challenge's deadline has passed.",
  "error.conflict.board_started": "Both players of this board are named: its match has started.",
  "error.conflict.seat_taken": "Your clan has named a player for this board already.",
  "clan.confirm.leave": "Leave the clan?",
  "clan.confirm.leave_disbands": "You are the clan's last player: leaving disbands it. Leave?",
  "clan.confirm.remove": "Remove this player from the clan?",
  "clan.confirm.hand_over": "Hand the leadership over to this player? You will become an officer.",
  "clan.confirm.disband": "Disband the clan? Every player leaves it and its name becomes free.",
  // a refused field of the clan forms (static/js/clans.js): "clan.validation_error.<field>[.<type>]",
  // type being pydantic's error type the server sends in params.errors (app/api/errors.py)
  "clan.validation_error.name": "A clan name has 2 to 40 characters.",
  "clan.validation_error.name.control_characters": "A clan name cannot hold control or invisible characters.",
  "clan.validation_error.name.format_characters": "A clan name cannot hold control or invisible characters.",
  "clan.validation_error.name.blank": "Enter a name.",
  "clan.validation_error.tag": "A tag has 2 to 6 letters A-Z or digits.",
  "clan.validation_error.tag.value_error": "That tag is reserved: choose another one.",
  "clan.validation_error.description": "A description has at most 500 characters, with no control characters.",
  "clan.validation_error.region": "Choose a region from the list.",
  "clan.validation_error.colour": "Choose the emblem colour with the colour picker.",
  // rematches (app/matches/rematch.py)
  "error.forbidden.not_player": "Only the players of this match can do that.",
  "error.not_finished.rematch": "A rematch can be offered once the match is over.",
  "error.not_found.rematch_offer": "There is no rematch offer to answer: it was declined or withdrawn.",
  "error.conflict.own_offer": "You have agreed to this rematch already.",
  "error.conflict.rematch_started": "The rematch has started already.",
  // the clan wall (app/clans/wall.py)
  "error.not_found.post": "That post is not on the wall (any more).",
  "clan.wall.empty": "Write something first.",
  "clan.confirm.wall_remove": "Remove this post from the wall?",
  "error.forbidden.origin": "This request did not come from this site, so it was refused.",
  "error.unauthorized.revoked": "You have logged out or your token was revoked: log in again to play.",
  "error.internal_error": "Something went wrong on the server. Please try again.",
  "error.network": "The server cannot be reached. Check your connection and try again.",
  "error.offline": "You are offline: your move was not sent. It will be possible again once reconnected.",
  "error.conflict": "That clashes with something that changed meanwhile; please try again.",
  "error.bad_request": "The server did not understand that request.",
  "error.method_not_allowed": "The server does not allow that here.",
  "error.error": ["The server answered {status}.", "The server refused that."],
  "error.http": "The server answered {status}.",

  // ---------------------------------------------------------------- ranks, points and rewards (app/points, app/rewards)
  "rank.knight": "Knight",
  "rank.master": "Master",
  "rank.lord": "Lord",
  "rank.leader": "Leader",
  "error.forbidden.not_admin": "Only an administrator may do that.",
  "error.conflict.insufficient_points": ["You have {balance} points; this costs {cost}.", "You do not have enough points."],
  "error.conflict.already_owned": "You have this reward already.",
  "error.conflict.not_for_sale": "This reward is not for sale any more.",
  "error.conflict.not_owned": "Buy this reward first.",
  "error.conflict.wrong_kind": "That reward is of another kind.",
  "error.not_found.reward": "There is no such reward (any more).",
  "reward.bought": "Bought. Your balance: {balance} points.",
  "reward.saved": "Saved.",

  // ---------------------------------------------------------------- forms and decks (checked in the page)
  "form.enter_name": "Enter a name.",
  "form.enter_password": "Enter a password.",
  "form.passwords_differ": "The two passwords are not the same.",
  "deck.name_taken": "You already have a {item} called “{name}”: choose another name.",
  "deck.login_first": "Log in to use saved {items}.",

  // ---------------------------------------------------------------- the match log (entry kinds)
  "log.start": "The match has started.",
  "log.action": "{who} played.",
  "log.action_hidden": "{who} has chosen (hidden until it is revealed).",
  "log.timeout": "{who}'s time ran out: the computer played for them.",
  "log.bot": "{who} played.",
  "log.back": "{who} is back.",
  "log.resign": "{who} resigned.",
  "log.end": "The match is over. The seed is revealed.",
  "log.step_link": "See the board at this step",

  // ---------------------------------------------------------------- the table (match_table.js, turn_alerts.js)
  // where a seat's player is (a person's seat; the computer's has none)
  "presence.connected": "connected",
  "presence.away": "away: computer plays",
  "presence.gone": "gone",
  // the notices on the board when a clock runs out, the computer takes a seat over, a player returns
  "notice.timeout": "{who}'s time ran out: the computer played that move.",
  "notice.timeout.you": "Your time ran out: the computer played that move for you. Once more and it takes over.",
  "notice.takeover": "{who} is away: the computer plays for them now.",
  "notice.takeover.you": "You are away: the computer plays for you now. Press “I'm back” to play again.",
  "notice.back": "{who} is back and plays again.",
  "notice.back.you": "You are back: your moves are yours again.",
  // quick chat: the phrases (codes of app/matches/chat.py's PHRASES) and a line
  "chat.hello": "Hello!",
  "chat.good_luck": "Good luck!",
  "chat.well_played": "Well played!",
  "chat.thanks": "Thanks!",
  "chat.oops": "Oops!",
  "chat.line": "{who}: {text}",
  "chat.empty": "Nothing said yet.",
  "chat.spectator": "Spectators read the chat; the players write in it.",
  "error.bad_message.unknown_phrase": "That chat phrase does not exist.",
  "error.forbidden.players_only": "Only the players of this match can chat.",
  // turn alerts
  "turn.title": "(●) Your turn · {title}",
  "turn.sound.on": "Sound on",
  "turn.sound.off": "Sound off",
  "turn.notify.on": "Alerts on",
  "turn.notify.off": "Alerts off",
  "turn.notify.denied": "Alerts blocked",
  "turn.notification.title": "Your turn",
  "turn.notification.body": "{game} · match {match}",

  // ---------------------------------------------------------------- the table around the board (match_client.js, match_ratings.js,
  // games/generic.js): seats, clocks, connection, the fair play box, joining; computer levels (api.js)
  "table.seat": "Seat {n}",
  "table.computer": "Computer ({level})",
  "table.free_seat": "(free seat)",
  "table.badge.you": "you",
  "table.badge.computer": "computer",
  "table.bot_account": "a bot account",
  "table.rank_title": "Rank: {rank}",
  "table.state.won": "won",
  "table.state.lost": "lost",
  "table.state.draw": "draw",
  "table.state.nobody_joined": "nobody joined",
  "table.state.ready": "ready",
  "table.state.waiting": "waiting for a player…",
  "table.state.chosen": "has chosen ✓",
  "table.state.choosing": "choosing…",
  "table.state.to_move": "to move",
  "table.clock.hours": "{h}h {m}m",
  "table.clock.bank": "time bank: {clock} per move",
  "table.duration.while": "a while",
  "table.duration.day": {"one": "{count} day", "other": "{count} days"},
  "table.duration.hour": {"one": "{count} hour", "other": "{count} hours"},
  "table.duration.minute": {"one": "{count} minute", "other": "{count} minutes"},
  "table.duration.second": {"one": "{count} second", "other": "{count} seconds"},
  "table.conn.online": "connected",
  "table.conn.closed": "disconnected",
  "table.conn.retry_in": "offline — reconnecting in {count} s",
  "table.conn.retrying": "offline — reconnecting…",
  "table.resign.confirm": "Resign this match? It counts as a loss.",
  "table.draw_failed": "Cannot draw the game: {message}",
  "table.join": "Join this match",
  "table.join.log_in": "Log in to join this match",
  "table.join.joined": "Joined: starting…",
  "table.cancel": "Cancel this match",
  "table.seed.unused": "This match never started, so its random seed was never used: there is nothing to check.",
  "table.seed.hash": "SHA-256 of the match's random seed, fixed before the first shuffle:",
  "table.seed.checking": "checking…",
  "table.seed.revealed": "The seed, revealed now that the match is over:",
  "table.seed.ok": "SHA-256(seed) matches the hash: every shuffle came from this seed.",
  "table.seed.bad": "SHA-256(seed) does NOT match the hash shown at the start!",
  "table.seed.later": "The seed itself is revealed when the match ends.",
  "table.and": "{list} and {last}",
  "table.ratings.title": "Rating changes",
  "table.ratings.ladder": "See the ladder",
  "table.ratings.points": {"one": "{points} season point", "other": "{points} season points"},
  "table.ratings.updating": "Updating the ratings…",
  "table.ratings.not_counted": "This match does not count for the ratings (a computer played a seat).",
  "table.ratings.late": "The ratings are not updated yet: see the players' profiles in a moment.",
  "table.generic.waiting": "Waiting for players to join…",
  "table.generic.over": "The match is over.",
  "table.generic.your_move": "Your move",
  "table.generic.sending": "Sending…",
  "table.generic.view": "What you see",
  "level.easy": "Easy",
  "level.medium": "Medium",
  "level.hard": "Hard",
  "level.algorithm": "algorithm: {name}",

  // ---------------------------------------------------------------- the replay's step lines ({picked}: " S1, S2, R1" or "")
  "replay.start": "The match starts. The seed's hash is fixed.",
  "replay.chance": "Chance: shuffle.",
  "replay.action": "{who} chose{picked}.",
  "replay.timeout": "{who}'s time ran out; the computer chose{picked}.",
  "replay.bot": "{who} chose{picked}.",
  "replay.back": "{who} is back.",
  "replay.resign": "{who} resigned.",
  "replay.end": "The match is over; the seed is revealed.",
  "replay.live": "This match is still being played: every step is shown as it was shown live, hidden choices stay hidden.",
  "replay.live.seat": "You see it as {who}'s seat saw it.",
  "replay.live.spectator": "You see it as a spectator saw it.",
  // the replay page's step box ({n} of {total}; replay.kind.<entry kind>)
  "replay.draw_failed": "Cannot draw this step: {message}",
  "replay.step_of": "Step {n} of {total}",
  "replay.version": "version {version}",
  "replay.kind.start": "start",
  "replay.kind.action": "move",
  "replay.kind.commit": "move",
  "replay.kind.chance": "chance",
  "replay.kind.timeout": "time ran out",
  "replay.kind.bot": "computer",
  "replay.kind.back": "back",
  "replay.kind.resign": "resigned",
  "replay.kind.end": "end",

  // ---------------------------------------------------------------- the result screen: rematch
  // (the `rematch` frame and /api/matches/{id}/rematch: status, seats; {who}, {whom}: players' names)
  "rematch.offer": "Rematch",
  "rematch.offer_rated": "Rematch (rated)",
  "rematch.computer_again": "Play the computer again",
  "rematch.offered_by_you": "You offered a rematch. Waiting for {whom}…",
  "rematch.offered_to_you": "{who} offers a rematch.",
  "rematch.offered_to_you_rated": "{who} offers a rated rematch.",
  "rematch.waiting": "You agreed. Waiting for {whom}…",
  "rematch.accept": "Accept",
  "rematch.decline": "Decline",
  "rematch.withdraw": "Withdraw",
  "rematch.declined_by": "{who} declined the rematch.",
  "rematch.declined_by_you": "You declined the rematch.",
  "rematch.withdrawn": "{who} withdrew the rematch offer.",
  "rematch.started": "The rematch has started.",
  "rematch.go": "Go to the rematch",
  "rematch.watch": "Watch the rematch",

  // ---------------------------------------------------------------- spectators ({count})
  "spectators.count": {"one": "{count} spectator", "other": "{count} spectators"},

  // ---------------------------------------------------------------- the lobby
  "lobby.confirm_cancel": "Cancel this match?",
  "lobby.confirm_cancel.yes": "Yes, cancel it",
  "lobby.confirm_cancel.no": "No, keep it",
  "lobby.live.empty": "Nobody is playing a match open to spectators right now.",
  "lobby.open.empty": "No open matches from other players. Create one!",
  "lobby.open.empty_visitor": "No open matches right now.",
  "lobby.live.watch": "Watch",
  "lobby.sign_up_to_join": "Sign up to join",
  // the create form (seats, teams, clock hint) and the match lists (lobby.js, api.js's clock texts)
  "lobby.seat": "Seat {n}",
  "lobby.seat_team": "Seat {n} · team {team}",
  "lobby.seat_computer": "Computer: {level}",
  "lobby.holder.you": "you",
  "lobby.holder.person": "a person",
  "lobby.holder.computer": "computer ({level})",
  "lobby.team_plan": "Team {team}: {seats}",
  "lobby.team_plan.seat": "seat {n} ({holder})",
  "lobby.team": "team {team}",
  "lobby.versus": "vs",
  "lobby.free_seat": "free seat",
  "lobby.free_for_all": "Free-for-all",
  "lobby.players": {"one": "{count} player", "other": "{count} players"},
  "lobby.opponent": "Opponent",
  "lobby.opponents": "Opponents",
  "lobby.opponent.person": "A person",
  "lobby.opponent.people": "People",
  "lobby.opponent.computer": "The computer",
  "lobby.opponent.computer_all": "The computer for every other seat",
  "lobby.hint.bank": "Each player has {clock}: the bank runs down while it is your turn and each of your moves adds the increment. When your bank runs out, the computer plays your move.",
  "lobby.hint.untimed": "No clock: take all the time you need.",
  "lobby.hint.turn": "When your time runs out, the computer plays your move.",
  "lobby.too_many.hint": "Your waiting matches are under “Your matches”, each with a Cancel button.",
  "lobby.clock.untimed": "untimed",
  "lobby.clock.per_turn": "{time} per turn",
  "lobby.unit.s": "{count} s",
  "lobby.unit.min": "{count} min",
  "lobby.unit.h": "{count} h",
  "lobby.unit.day": {"one": "{count} day", "other": "{count} days"},
  "lobby.tag.spectators": "spectators allowed",
  "lobby.tag.no_spectators": "no spectators",
  "lobby.tag.no": "no {name}",
  "lobby.rated": "rated",
  "lobby.join": "Join",
  "lobby.open": "Open",
  "lobby.play": "Play",
  "lobby.replay": "Replay",
  "lobby.cancel": "Cancel",
  "lobby.cancel.label": "Cancel {title} #{id}",
  "lobby.mine.waiting": "waiting for an opponent",
  "lobby.mine.in_play": "in play",
  "lobby.mine.empty": "You are in no match right now.",
  "lobby.finished.empty": "None yet.",
  "lobby.result.won": "you won",
  "lobby.result.all_won": "both won",
  "lobby.result.lost": "you lost",
  "lobby.result.all_lost": "both lost",
  "lobby.result.draw": "draw",

  // ---------------------------------------------------------------- a match that never started
  "aborted.cancelled.headline": "This match was cancelled",
  "aborted.cancelled.detail": "Its creator cancelled it before an opponent joined.",
  "aborted.expired.headline": "This match expired",
  "aborted.expired.detail": "Nobody joined it within {duration}, so it was closed.",
  "aborted.other.headline": "This match was called off",
  "aborted.other.detail": "It ended before it started.",
  "aborted.nothing_played": "Nothing was played.",
  "aborted.nothing_to_replay": "Nothing was played, so there is nothing to replay.",
  "aborted.back": "Back to the lobby",

  // ---------------------------------------------------------------- why a match ended
  "reason.resigned": "a player resigned",
  "result.you_resigned": "You resigned.",
  "result.resigned": "{who} resigned.",
  "reason.abandoned": "the match was abandoned",
  "reason.timeout": "a player's time ran out",
  "reason.cancelled": "cancelled",
  "reason.expired": "expired",

  // ---------------------------------------------------------------- Battle Runes: one step of a turn
  // (the engine's step {code, params}, app/games/battle_runes/resolve.py's Step: `seat` params are
  // replaced by the player's name as `who`; `what`, `bonus_what`, `source` ("S" or "R") by br.what.*;
  // `condition` (a condition id of runes.yaml) by br.condition.*)
  "br.step.enables": "enables bonuses",
  "br.step.annulled": "turn annulled: Fire or Water was played",
  "br.step.zero_no_effect": "no effect: no Fire or Water played",
  "br.step.points": ["+{base} {what}, +{bonus} {bonus_what} ({condition})", "+{base} {what}"],
  "br.step.cross": "+{gain} {what} (own {source})",
  "br.step.doubled": "own {what} doubled to {value}",
  "br.step.equal": "equal {what}: no effect",
  "br.step.leads": "{who} leads in {what}: +{gain}",
  "br.step.swap_self": "own construction and destruction swapped",
  "br.step.swap_opp": "opponent's construction and destruction swapped",
  "br.step.swap_s": "construction swapped between the seats",
  "br.step.swap_r": "destruction swapped between the seats",
  "br.step.swap_all": "whole scores swapped: now {a} / {b}",
  "br.step.swap_all_no_effect": "no effect: Fire and Water were not both played",
  "br.step.swap_all_annulled": "no effect: the turn is annulled",
  "br.what.S": "construction",
  "br.what.R": "destruction",
  "br.condition.water_any": "Water was played",
  "br.condition.water_self": "own Water",
  "br.condition.water_opp": "opponent's Water",
  "br.condition.fire_any": "Fire was played",
  "br.condition.fire_self": "own Fire",
  "br.condition.fire_opp": "opponent's Fire",
  "br.condition.opp_no_modifier": "opponent played no modifier",
  "br.condition.opp_base_destruction_zero": "opponent played no destruction",
  "br.condition.opp_base_construction_zero": "opponent played no construction",

  // ---------------------------------------------------------------- Scratch Wars (static/js/games/scratch_wars.js)
  // the names of effects, times of day and fields (the card set's terms; the Czech rulebook's words in cs)
  "sw.effect.energy": "Energy",
  "sw.effect.attack_hero": "Attack hero",
  "sw.effect.attack_weapon": "Attack weapon",
  "sw.effect.universal_attack": "Universal attack",
  "sw.effect.heal": "Heal",
  "sw.effect.permanent_attack": "Permanent attack",
  "sw.effect.shield": "Shield",
  "sw.effect.combo": "Combo",
  "sw.time.morning": "Morning",
  "sw.time.noon": "Noon",
  "sw.time.evening": "Evening",
  "sw.time.night": "Night",
  "sw.field.green": "green",
  "sw.field.orange": "orange",
  "sw.field.red": "red",
  "sw.source.combo": "combo",
  "sw.source.permanent_attack": "permanent attack",
  // the line at the top of the board
  "sw.status.over": "The duel is over.",
  "sw.status.defend": "You are attacked: defend yourself!",
  "sw.status.start_spin": "The start spin decides who plays first.",
  "sw.status.your_turn": "Your turn.",
  "sw.status.your_turn_round": "Your turn, round {round}.",
  "sw.status.wheel": "The wheel turns…",
  "sw.status.start_weapon": "Both players choose the weapon for the start spin.",
  "sw.status.shield": "{who} may spend shields against the attack.",
  "sw.status.start_choice": "{who} chooses who starts.",
  "sw.status.watch": "{who}'s turn: watch their spins.",
  "sw.status.turn": "{who}'s turn.",
  // the log: inputs and the engine's events (app/games/scratch_wars/events.py; {who}, {whom}: players'
  // names; {weapon}, {hero}: card names; {effect}: sw.effect.*; {count}: the number a plural follows)
  "sw.input.hidden": "{who} has chosen (hidden until both have chosen).",
  "sw.input.random_loadout": "You asked for a random loadout.",
  "sw.input.loadout": "You chose {loadout}.",
  "sw.ev.loadouts_revealed": "Loadouts revealed: {list}.",
  "sw.ev.loadout": "{who}: {hero} with {weapons}",
  "sw.ev.loadout_random": "{who} (random): {hero} with {weapons}",
  "sw.ev.start_weapons": "Start spin with {who0}'s {weapon0} and {who1}'s {weapon1}.",
  "sw.ev.start_spin": "Start spin: {who0} {value0}, {who1} {value1}: {who} chooses who starts.",
  "sw.ev.start_spin_tie": "Start spin: {who0} {value0}, {who1} {value1}: a tie, spin again.",
  "sw.ev.starter_chosen": {"one": "{who} starts and loses 2 lives ({count} life left).", "other": "{who} starts and loses 2 lives ({count} left)."},
  "sw.ev.round_started": "Round {round}.",
  "sw.ev.round_started_day": "Round {round}: day {day}, {time}.",
  "sw.ev.day3_penalty": {"one": "Day 3 or later: both heroes lose {count} life ({who0} {lives0}, {who1} {lives1}).", "other": "Day 3 or later: both heroes lose {count} lives ({who0} {lives0}, {who1} {lives1})."},
  "sw.ev.turn_started": "{who}'s turn.",
  "sw.ev.turn_started_bits": "{who}'s turn: {bits}.",
  "sw.bit.energy": "+{amount} energy ({energy})",
  "sw.bit.repaired": {"one": "repaired weapon ready again", "other": "repaired weapons ready again"},
  "sw.ev.spin_started": "{who} spins {weapon}.",
  "sw.ev.spin_started_cost": "{who} spins {weapon} ({cost} energy).",
  "sw.ev.spin_result": "→ {field} {effect} {value}.",
  "sw.ev.spin_result_counts": "→ {field} {effect} {value} (counts as {as}).",
  "sw.ev.effect_skipped": "{who} skips it.",
  "sw.ev.effect_used": "{who} uses {effect} {base}.",
  "sw.ev.effect_used_bonus": "{who} uses {effect} {base} {bonus} bonus = {value}.",
  "sw.ev.energy_gained": "{who} gains {amount} energy ({energy}).",
  "sw.ev.healed": {"one": "{who} heals {amount} ({count} life).", "other": "{who} heals {amount} ({count} lives)."},
  "sw.ev.effect_deferred": "{who} defers {effect} {value} on {weapon}.",
  "sw.ev.attack_hero": "{who}'s {source} {value} hits {whom}'s hero.",
  "sw.ev.attack_weapon": "{who}'s {source} {value} hits {whom}'s {weapon}.",
  "sw.ev.attack_held": "{who}'s {source} {value} hits the effect held on {whom}'s {weapon}.",
  "sw.ev.shield_spent": "{who} spends shield {shield} ({weapon}): the attack drops to {value}.",
  "sw.ev.hero_hit": {"one": "{who} loses {value} ({count} life).", "other": "{who} loses {value} ({count} lives)."},
  "sw.ev.weapon_broken": "{who}'s {weapon} breaks.",
  "sw.ev.weapon_holds": "{who}'s {weapon} holds.",
  "sw.ev.held_survives": "The held effect on {who}'s {weapon} survives.",
  "sw.ev.effect_cancelled_owner": "{who} cancels the {effect} {value} on {weapon}.",
  "sw.ev.effect_cancelled": "{who}'s {effect} {value} on {weapon} is cancelled.",
  "sw.ev.repair_started": "{who} repairs {weapon}: usable from their next turn.",
  "sw.ev.repair_started_cost": "{who} repairs {weapon} ({cost} energy): usable from their next turn.",
  "sw.end.voluntary": "{who} ends the turn.",
  "sw.end.voluntary_lost": {"one": "{who} ends the turn ({count} action unused).", "other": "{who} ends the turn ({count} actions unused)."},
  "sw.end.actions": "{who} has no actions left.",
  "sw.end.field": "The field ends {who}'s turn.",
  "sw.end.energy": "{who} is out of energy: the turn ends.",
  "sw.ev.combo_detonated": "{who} detonates combos {values} = {value}.",
  "sw.ev.combo_detonated_bonus": "{who} detonates combos {values} {bonus} = {value}.",
  "sw.ev.combos_kept": "{who} keeps the combos for later.",
  "sw.ev.game_over": "Game over: {who} wins.",
  "sw.ev.game_over_draw": "Game over: a draw.",
  // the result
  "sw.result.win": "You win!",
  "sw.result.loss": "You lose.",
  "sw.result.draw": "A draw: both heroes fell together.",
  "sw.result.spectator": "{who} wins!",
  "sw.result.you_resigned": "You resigned.",
  "sw.result.resigned": "{who} resigned.",
  "sw.result.lives": {"one": "{who} {count} life", "other": "{who} {count} lives"},
  "sw.reason.defeated": "a hero fell",
  "sw.reason.day3_penalty": "the day-3 penalty",
  "sw.result.back_to_lobby": "Back to the lobby",
  "sw.result.watch_replay": "Watch the replay",

  // ---------------------------------------------------------------- Fantasy súboj (static/js/games/fantasy_duel.js)
  // log lines: the engine's event codes and parameters (`who`, `whom`: seat names; `unit`...: unit names)
  "fd.ev.deck_shuffled": "The deck of {cards} units is shuffled; every player gets 3 units.",
  "fd.ev.start_roll": "Start roll: {rolls}.",
  "fd.ev.first_player": "{who} starts.",
  "fd.ev.turn_started": "Round {round}: {who}'s turn.",
  "fd.ev.turn_skipped.no_units": "{who} has no units: the turn passes.",
  "fd.ev.turn_skipped.no_attack": "{who} cannot attack: the turn passes.",
  "fd.ev.attack_declared": "{who}'s {unit} attacks {whom}'s {target_unit} with {dice} dice.",
  "fd.ev.attack_resolved.defeated": "Dice {dice}: {total} against {defence}: {target_unit} is defeated (by {margin}).",
  "fd.ev.attack_resolved.doom": "Dice {dice}: Kostej's Doom defeats {target_unit}.",
  "fd.ev.attack_resolved.repelled": "Dice {dice}: {total} against {defence}: {unit} is defeated (by {margin}).",
  "fd.ev.attack_resolved.hidden": "Dice {dice}: {total} against {defence}, but {target_unit} hides.",
  "fd.ev.attack_resolved.tie": "Dice {dice}: {total} against {defence}: a tie, nothing happens.",
  "fd.ev.attack_resolved.poisoned": "Dice {dice}: {total} against {defence}: the attack fails and poisons {target_unit}.",
  "fd.ev.imprisoned": "{unit} goes to {who}'s prison.",
  "fd.ev.recruited": "{who} recruits {unit} from {whom}; {released_unit} goes to prison.",
  "fd.ev.drew.replace": "{who} draws {unit}.",
  "fd.ev.drew.topup": "{who} draws {unit} (top-up).",
  "fd.ev.drew.muster": "{who} draws {unit} before attacking.",
  "fd.ev.drew.deal": "{who} gets {unit}.",
  "fd.ev.drew.tactics_lost": "{who} lost Tactics and draws {unit}.",
  "fd.ev.deck_empty": "The deck is empty: play goes on with the units on the table.",
  "fd.ev.poisoned": "{who}'s {unit} is poisoned.",
  "fd.ev.cured": "A Healer cures {who}'s {units}.",
  "fd.ev.recovered": "{who}'s {units} recover from poison.",
  "fd.ev.deferred.replace": "{who} (Tactics) does not draw a replacement now.",
  "fd.ev.deferred.topup": "{who} (Tactics) declines the top-up.",
  "fd.ev.deferred.muster": "{who} (Tactics) attacks without drawing.",
  "fd.ev.round_ended": ["Round {round} is over ({quiet_rounds} quiet rounds).", "Round {round} is over."],
  "fd.ev.game_over": "Game over: {winners}.",
  "fd.input.attacker": "{who} chooses {unit} to attack.",
  "fd.input.back": "{who} chooses another attacker.",
  "fd.input.timeout": "{who}'s time ran out: the computer chose.",
  // the table
  "fd.phase.shuffle": "Shuffling the deck…",
  "fd.phase.start_roll": "Rolling to see who starts…",
  "fd.phase.roll": "Rolling {dice} dice for {who}…",
  "fd.phase.over": "The match is over.",
  "fd.wait.attacker": "{who} is choosing an attacker…",
  "fd.wait.target": "{who} is choosing a target for {unit}…",
  "fd.wait.muster": "{who} (Tactics) decides whether to draw before attacking…",
  "fd.wait.spoils": "{who} won by {margin}: imprison or recruit {unit}?",
  "fd.wait.replace": "{who} (Tactics) decides whether to draw a replacement…",
  "fd.wait.topup": "{who} (Tactics) decides whether to take a top-up card…",
  "fd.you.attacker": "Your turn: choose one of your units to attack with.",
  "fd.you.target": "Choose the enemy unit {unit} attacks. The chances are exact.",
  "fd.you.muster": "You have Tactics: draw owed cards now, or attack with the units you have.",
  "fd.you.spoils": "You won by {margin}: send {unit} to your prison, or recruit it in place of one of your units.",
  "fd.you.replace": "You have Tactics: draw the replacement now, or keep the card owed for later.",
  "fd.you.topup": "You have Tactics: take this top-up card, or decline the rest of the top-up.",
  "fd.you.sending": "Sending your choice…",
  "fd.act.draw": "Draw a card",
  "fd.act.defer.muster": "Attack without drawing",
  "fd.act.defer": "Not now",
  "fd.act.back": "Choose another attacker",
  "fd.act.imprison": "Imprison {unit}",
  "fd.act.recruit": "Recruit {unit}, send {own} to prison",
  "fd.act.attacker": "Attack with {unit}",
  "fd.act.target": "Attack {unit} ({who})",
  "fd.odds": "win {win} · tie {tie} · lose {lose}",
  "fd.odds.hide": "hides {hide}",
  "fd.odds.poison": "poisons {poison}",
  "fd.odds.big": "win by more than 10: {big_win}",
  "fd.result.defeated": "{target_unit} defeated",
  "fd.result.repelled": "{unit} defeated",
  "fd.result.hidden": "{target_unit} hid",
  "fd.result.tie": "tie: nothing happens",
  "fd.result.poisoned": "{target_unit} poisoned",
  "fd.outcome.win": "You win!",
  "fd.outcome.loss": "You lose.",
  "fd.outcome.draw": "A draw: you share first place.",
  "fd.outcome.spectator": "{winners} wins.",
  "fd.outcome.spectator_draw": "A draw between {winners}.",
  "fd.reason.last_army": "only one side has units left",
  "fd.reason.stalemate": "no unit fell for {rounds} rounds",
  // abilities, short (a unit's chips) and long (its tooltip)
  "fd.ability.bonus_vs": "+{attack} vs {target}",
  "fd.ability.defense_bonus_vs": "+{defense} def vs {attacker}",
  "fd.ability.hiding": "Hiding",
  "fd.ability.tracking": "Tracking",
  "fd.ability.poison": "Poison",
  "fd.ability.healer": "Healer",
  "fd.ability.taunt": "Taunt",
  "fd.ability.tactics": "Tactics",
  "fd.ability.ally_support": "Ally support ≤+{max_extra_dice}d6",
  "fd.ability.defensive_fire": "Defensive fire",
  "fd.ability.doom_vs_living": "Doom vs living",
  "fd.ability_long.bonus_vs": "+{attack} attack against {target} units",
  "fd.ability_long.defense_bonus_vs": "+{defense} defence against {attacker} attackers",
  "fd.ability_long.hiding": "an attack that would win misses on an even dice sum",
  "fd.ability_long.tracking": "the targets of this army cannot hide",
  "fd.ability_long.poison": "a failed attack on a living unit poisons it instead",
  "fd.ability_long.healer": "no unit of this army can be poisoned",
  "fd.ability_long.taunt": "while it stands unpoisoned, enemies must attack a Taunt unit",
  "fd.ability_long.tactics": "ignores Taunt; may draw cards when it chooses",
  "fd.ability_long.ally_support": "+{extra_dice_per_ally} die per other unit of its faction, at most +{max_extra_dice}",
  "fd.ability_long.defensive_fire": "+ the attacker's lowest die to its defence",
  "fd.ability_long.doom_vs_living": "defeats any living unit that does not hide",
  // ---------------------------------------------------------------- Treasure Beasts ("tb.*")
  "tb.creature": "creature {uid}",
  "tb.zone.start": "Start",
  "tb.zone.bushes": "Bushes",
  "tb.zone.center": "Center",
  "tb.group.pacifists": "Pacifist",
  "tb.group.birds": "Bird",
  "tb.group.bloodthirsty": "Bloodthirsty",
  "tb.group.felines": "Feline",
  "tb.group.attachers": "Attacher",
  "tb.prop.flight": "Flight",
  "tb.prop.jump": "Jump",
  "tb.prop.threat": "Threat",
  "tb.prop.interception": "Interception",
  "tb.prop.theft": "Theft",
  "tb.prop.carrying_capacity": "Carrying",
  "tb.prop.peacefulness": "Peaceful",
  "tb.prop.aggressiveness": "Aggressive",
  "tb.prop.stealth": "Stealth",
  "tb.prop.attentiveness": "Attentive",
  "tb.trigger.on_enter": "Enters",
  "tb.trigger.activated": "Tire",
  "tb.trigger.on_leave": "Leaves",
  "tb.trigger.passive": "Always",
  "tb.line.group": "{group}s ×{count}",
  "tb.line.alt": ["Instead ({ap} AP, {treasure} treasure)", "Instead ({ap} AP)"],
  "tb.line.attach.own": "Attach to yours",
  "tb.line.attach.opponent": "Attach to an enemy",
  "tb.line.attach.any": "Attach to any",
  "tb.target.self": "it",
  "tb.target.host": "its host",
  "tb.target.own": "your creatures",
  "tb.target.enemy": "enemy creatures",
  "tb.target.group": "your {group}s",
  "tb.target.group_all": "every {group}",
  "tb.target.strongest_enemy": "the strongest enemy",
  "tb.target.weakest_enemy": "the weakest enemy",
  "tb.target.ready_enemy": "the strongest ready enemy",
  "tb.target.own_tired": "your strongest tired creature",
  "tb.direction.forward": "forward",
  "tb.direction.back": "back",
  "tb.eff.strength": "{target} {signed} strength",
  "tb.eff.grant": "{target} gains {property}",
  "tb.eff.remove": "{target} loses {property}",
  "tb.eff.extra_move": "{target} moves {amount} more a turn",
  "tb.eff.take_bonus": "{target} takes {amount} more treasure",
  "tb.eff.gain": "take {amount} treasure",
  "tb.eff.drain": "each opponent loses {amount} treasure",
  "tb.eff.steal": "steal {amount} from the richest opponent",
  "tb.eff.draw": "draw {amount}",
  "tb.eff.discard": "each opponent discards {amount}",
  "tb.eff.ap": "+{amount} action point",
  "tb.eff.destroy": ["destroy {target} of strength ≤ {max}", "destroy {target}"],
  "tb.eff.return": ["return {target} of strength ≤ {max} to its hand", "return {target} to its hand"],
  "tb.eff.revive": "bring back the newest creature of the discard",
  "tb.eff.move": "move {target} one zone {direction}",
  "tb.eff.tire": "tire {target}",
  "tb.eff.ready": "ready {target}",
  "tb.strength": "strength",
  "tb.ready": "ready",
  "tb.tired": "tired",
  "tb.fresh": "new",
  "tb.used.take": "took",
  "tb.used.attack": "attacked",
  "tb.used.theft": "stole",
  "tb.used.activated": "used",
  "tb.attached": "Attached:",
  "tb.you": "you",
  "tb.out": "out",
  "tb.turn_badge": "to play",
  "tb.hand_size": "{count} in hand",
  "tb.treasures": "◆ {count}",
  "tb.treasury_title": "treasures in the treasury",
  "tb.center": "Center: ◆ {count}",
  "tb.center_title": "treasures in the centre",
  "tb.ap": "{who}: {ap} AP left",
  "tb.draft_round": "Draft pick {round} of 6",
  "tb.round": "Round {round} of {max}",
  "tb.deck": "Deck: {count}",
  "tb.discard": "Discard: {count}",
  "tb.empty": "empty",
  "tb.your_pack": "Your pack ({count}): keep one, pass the rest",
  "tb.pack_empty": "Your pack is empty.",
  "tb.your_picks": "Your picks so far ({count})",
  "tb.no_picks": "No picks yet.",
  "tb.passing": ["Packs pass to the left (yours to {next}). Cards per pack: {packs}.", "Cards per pack: {packs}."],
  "tb.your_hand": "Your hand ({count})",
  "tb.hand_empty": "Your hand is empty.",
  "tb.revealed_hand": "Hand: {cards}.",
  "tb.revealed_hand_empty": "Hand: empty.",
  "tb.revealed_pack": "Pack: {cards}.",
  "tb.panel.attack": "Attack",
  "tb.panel.creatures": "Creatures (free)",
  "tb.panel.hand": "Hand",
  "tb.panel.turn": "Turn",
  "tb.hint.pack": "Keep a card: press Keep on a card of your pack.",
  "tb.hint.hand": "Play a card from your hand with the buttons on it (1 AP each).",
  "tb.act.pick": "Keep {card}",
  "tb.act.deploy": "Deploy {card} to {zone} (1 AP)",
  "tb.act.alt_use": ["Use {card} instead ({ap} AP, {treasure} treasure)", "Use {card} instead ({ap} AP)"],
  "tb.act.discard": "Discard {card}",
  "tb.act.attach": "Attach {card} to {host} ({who})",
  "tb.act.move": "Move {creature} to {zone}",
  "tb.act.reattach": "Re-attach {creature} to {host}",
  "tb.act.take": "{creature} takes {amount} treasure",
  "tb.act.steal": "{creature} steals from {whom}",
  "tb.act.activate": "Tire {creature}: its ability",
  "tb.act.target": "Attack {creature} ({who}, {strength})",
  "tb.act.join": "Add {creature} ({strength})",
  "tb.act.strike": "Strike: {sum} against {defence}",
  "tb.act.lose": "Destroy {creature} ({strength})",
  "tb.act.pass": "End the turn",
  "tb.attack.target": "Attack on {who}'s {creature} (strength {strength})",
  "tb.attack.attackers": "Attackers: {list} (total {sum})",
  "tb.attack.none": "No attacker yet: add one.",
  "tb.attack.budget": "Strike-back left: {budget}; destroyed so far: {lost}",
  "tb.phase.deal": "Shuffling and dealing the packs…",
  "tb.phase.reshuffle": "Shuffling the discard into a new deck…",
  "tb.phase.over": "The match is over.",
  "tb.you.sending": "Sending your choice…",
  "tb.you.draft": "Draft: keep one card of your pack; the rest passes to the left.",
  "tb.you.main": "Your turn: {ap} action points left. Move and act with your creatures first: the turn ends with your last AP.",
  "tb.you.attack": "Attack on {creature}: add attackers, then strike.",
  "tb.you.losses": "{creature} strikes back with {budget}: choose which attacker is destroyed.",
  "tb.you.discard": "Too many cards: discard down to 6.",
  "tb.wait.draft": "The others are choosing from their packs…",
  "tb.wait.draft_picked": "You kept a card; waiting for the others to pick…",
  "tb.wait.main": "{who} is playing ({ap} AP left)…",
  "tb.wait.attack": "{who} is attacking {creature}…",
  "tb.wait.losses": "{defender} chooses which attackers {creature} destroys…",
  "tb.wait.discard": "{who} discards down to 6…",
  "tb.outcome.win": "You win!",
  "tb.outcome.loss": "You lose.",
  "tb.outcome.spectator": "{winners} wins.",
  "tb.result.win": "win",
  "tb.result.loss": "loss",
  "tb.reason.treasure": "12 treasures reached",
  "tb.reason.last_standing": "the last player standing",
  "tb.reason.turn_cap": "the round limit: the richest player wins",
  "tb.back_to_lobby": "Back to the lobby",
  "tb.watch_replay": "Watch the replay",
  "tb.waiting.title": "Waiting for players to join…",
  "tb.waiting.seats": "{taken} of {total} seats taken. The match starts when every seat is held.",
  "tb.waiting.players": "Players so far: {names}",
  "tb.waiting.expiry": "If nobody joins within {duration}, it is closed by itself.",
  "tb.input.timeout": "{who}'s time ran out: the computer chose.",
  "tb.why.take": "taking",
  "tb.why.theft": "theft",
  "tb.why.alternative_use": "an alternative use",
  "tb.why.attack": "in an attack",
  "tb.why.destroyed": "by an ability",
  "tb.why.returned": "by an ability",
  "tb.ev.dealt.own": "Your pack: {cards}.",
  "tb.ev.picked.own": "You keep {card}.",
  "tb.ev.packs_passed": "Pick {round}: the packs pass to the left.",
  "tb.ev.turn_started": "Turn {turn}: {who} plays.",
  "tb.ev.turn_ended": "{who} ends the turn.",
  "tb.ev.drew": ["{who} draws {count}.", "{who} draws."],
  "tb.ev.drew.own": "You draw {cards}.",
  "tb.ev.entered.deployed": "{who} deploys {card} to {zone}.",
  "tb.ev.entered.revived": "{who} brings {card} back to {zone}.",
  "tb.ev.entered.attached": "{who} attaches {card} to {host}.",
  "tb.ev.left.discard": "{who}'s {card} is destroyed {reason}.",
  "tb.ev.left.hand": "{who}'s {card} returns to the hand.",
  "tb.ev.moved": "{creature} moves from {from} to {to}.",
  "tb.ev.reattached": "{creature} is re-attached to {host}.",
  "tb.ev.treasure.gain": "{who} gains {count} treasure ({why}).",
  "tb.ev.treasure.pay": "{who} loses {count} treasure ({why}).",
  "tb.ev.stolen": "{who} steals {count} treasure from {whom} ({why}).",
  "tb.ev.ability.on_enter": "{card} enters: its ability.",
  "tb.ev.ability.on_leave": "{card} leaves: its ability.",
  "tb.ev.ability.activated": "{who} tires {card} for its ability.",
  "tb.ev.ability.alternative_use": "{card}'s alternative use.",
  "tb.ev.alternative_use": "{who} discards {card} for its alternative use.",
  "tb.ev.ap_gained": "{who} gets {amount} more action points.",
  "tb.ev.attack_declared": "{who} attacks {target_name}.",
  "tb.ev.attacker_joined": "{creature} joins the attack on {target_name}.",
  "tb.ev.strike.destroyed": "Strike: {strength} against {defence}: {target_name} is destroyed.",
  "tb.ev.strike.holds": "Strike: {strength} against {defence}: {target_name} holds.",
  "tb.ev.attack_resolved": "{target_name} strikes back: {lost} destroyed.",
  "tb.ev.attack_resolved.none": "No attacker is lost.",
  "tb.ev.discarded.limit": "{who} discards {cards} (hand limit).",
  "tb.ev.discarded.effect": "{who} discards {cards} ({source}).",
  "tb.ev.pushed": "{creature} is pushed to {zone} ({source}).",
  "tb.ev.readied": "{creature} is readied ({source}).",
  "tb.ev.tired": "{creature} is tired ({source}).",
  "tb.ev.eliminated": "{who} has no treasure at the end of the turn and is out.",
  "tb.ev.deck_reshuffled": "The discard ({size} cards) is shuffled into a new deck.",
  "tb.ev.game_over": "Game over: {winners} wins ({reason}).",
};

let words = WORDS;
let locale = "en";
let plurals = new Intl.PluralRules("en");

/** Use another table (a translation) for `lang` (a BCP 47 tag); keys it lacks still come from English. */
export function useWords(table, lang = locale) {
  words = { ...WORDS, ...(table || {}) };
  locale = lang || "en";
  plurals = new Intl.PluralRules(locale);
}

/** The page's language (from <html lang>), e.g. "cs". */
export function pageLocale() {
  return locale;
}

// the page's catalog, inlined by the server (templates/base.html)
if (typeof document !== "undefined") {
  const node = document.getElementById("i18n-words");
  const lang = (document.documentElement && document.documentElement.lang) || "en";
  let table = {};
  try {
    table = node ? JSON.parse(node.textContent || "{}") : {};
  } catch (err) {
    table = {};
  }
  useWords(table, lang);
}

function fill(template, params) {
  // numbers as given (ids, lives, counts): a caller formats a big one with formatNumber first
  return template.replace(/\{(\w+)\}/g, (_, key) => String(params[key]));
}

function satisfied(template, params) {
  return [...template.matchAll(/\{(\w+)\}/g)].every(([, key]) => params[key] !== undefined && params[key] !== null);
}

/** The list of templates of an entry: a plural object gives the form for `params.count`. */
function forms(entry, params) {
  if (entry && typeof entry === "object" && !Array.isArray(entry)) {
    const n = Number(params.count);
    const form = entry[Number.isFinite(n) ? plurals.select(n) : "other"] ?? entry.other;
    return forms(form, params);
  }
  if (entry === undefined || entry === null) return [];
  return Array.isArray(entry) ? entry : [entry];
}

/** Is `key` in the table? */
export function knows(key) {
  return words[key] !== undefined;
}

/**
 * The words for `key` with `params` filled in. An
 * unknown key, or one whose every template needs a parameter that is missing, gives `fallback`
 * (or the key itself when there is none).
 * @param {string} key  e.g. "error.name_taken", "log.timeout"
 * @param {object} [params]  plural entries choose their form by `params.count`
 * @param {string} [fallback]
 */
export function say(key, params = {}, fallback = undefined) {
  const p = params || {};
  const template = forms(words[key], p).find((t) => satisfied(t, p));
  if (template !== undefined) return fill(template, p);
  return fallback !== undefined && fallback !== null && fallback !== "" ? String(fallback) : key;
}

/** The one translation helper of the pages: `t("sw.ev.healed", {who, amount, lives})` (= say). */
export const t = say;

/** A number in the page's language (Intl.NumberFormat: "1 234,5" in Czech). */
export function formatNumber(n, options = undefined) {
  try {
    return new Intl.NumberFormat(locale, options).format(n);
  } catch (err) {
    return String(n);
  }
}

/**
 * The words for an error: an ApiError (static/js/api.js), an error frame, or anything with
 * `{code, message, params}`. `message` (English, for developers) is shown only for a code the
 * table does not know.
 */
export function errorText(err) {
  if (!err) return "";
  const code = err.code || "internal_error";
  const params = { ...(err.params || {}) };
  if ((code === "bad_deck" || code === "bad_options") && err.message) params.message = String(err.message).replace(/[.\s]+$/, "");
  const fallback = err.message || say("error.internal_error");
  if (params.reason !== undefined && knows(`error.${code}.${params.reason}`)) {
    return say(`error.${code}.${params.reason}`, params, say(`error.${code}`, params, fallback));
  }
  return say(`error.${code}`, params, fallback);
}

/** The words for an error saving a deck called `name` (what one deck is called: `item`, e.g. "setup"). */
export function deckErrorText(err, { item, name }) {
  if (err && err.code === "name_taken") return say("deck.name_taken", { item, name });
  return errorText(err);
}
