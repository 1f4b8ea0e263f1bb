"""The day: the introduction night's end, the speeches from the right seat, the nominations,
the vote (the split vote and the all-or-nobody vote where the regulation has them), the last
words; then the night falls."""

from __future__ import annotations

from dataclasses import replace

from domain.game_log.actions import (
    Action,
    AllOrNobody,
    Ballot,
    CastVotes,
    GameLogRefused,
    Nominate,
    Withdraw,
)
from domain.game_log.end import offer_end
from domain.game_log.state import (
    Exit,
    LiveGame,
    Nomination,
    Phase,
    VoteRecord,
    alive_seat,
    with_seat,
)
from domain.regulation import Regulation


def proceed_introduction(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return start_day(replace(game, day=0), regulation)


def start_day(game: LiveGame, regulation: Regulation) -> LiveGame:
    day = game.day + 1
    first = _next_in_play(game, 0) if day == 1 else _next_in_play(game, game.first_speaker)
    order = _order_from(game, first)
    game = replace(
        game,
        phase=Phase.SPEECHES,
        day=day,
        first_speaker=first,
        order=order,
        position=0,
        nominations=(),
        no_vote=False,
        candidates=(),
        leaving=(),
        shot=None,
    )
    return _begin_turn(game)


def _next_in_play(game: LiveGame, after: int) -> int:
    """The first seat in play after `after`, going round the table."""
    for step in range(1, 11):
        seat = (after + step - 1) % 10 + 1
        if game.alive(seat):
            return seat
    raise GameLogRefused("game-log-nobody-left")


def _order_from(game: LiveGame, first: int) -> tuple[int, ...]:
    return tuple(seat for step in range(10) if game.alive(seat := (first + step - 1) % 10 + 1))


def _begin_turn(game: LiveGame) -> LiveGame:
    """The turn of the speaker at `position`: a player silenced by fouls loses this speech."""
    speaker = game.speaker
    if game.phase is Phase.SPEECHES and speaker is not None and speaker in game.silenced:
        return replace(game, silent=True, silenced=game.silenced - {speaker})
    return replace(game, silent=False)


def next_speaker(game: LiveGame, regulation: Regulation, *, started: bool = True) -> LiveGame:
    position = game.position + 1 if started else game.position
    game = replace(game, position=position)
    if position < len(game.order):
        return _begin_turn(game)
    if game.phase is Phase.SPLIT_SPEECHES:
        return replace(game, phase=Phase.REVOTE, silent=False)
    return _after_speeches(replace(game, silent=False), regulation)


def proceed_speech(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return next_speaker(game, regulation)


def _after_speeches(game: LiveGame, regulation: Regulation) -> LiveGame:
    candidates = tuple(seat for seat in game.nominees if game.alive(seat))
    if game.no_vote or not candidates:
        return to_night(game, regulation)
    if (
        len(candidates) == 1
        and game.day == 1
        and not regulation.game.first_day_single_candidate_votes
    ):
        # 3.10: a single candidate on the first day is not voted on.
        return to_night(game, regulation)
    return replace(game, phase=Phase.VOTING, candidates=candidates)


def nominate(game: LiveGame, action: Action, _regulation: Regulation) -> LiveGame:
    assert isinstance(action, Nominate)
    alive_seat(game, action.by)
    alive_seat(game, action.target)
    if action.by != game.speaker:
        raise GameLogRefused("game-log-not-speaker", seat=action.by)
    if any(n.by == action.by for n in game.nominations):
        raise GameLogRefused("game-log-nominated-already", seat=action.by)
    if action.target in game.nominees:
        raise GameLogRefused("game-log-candidate-already", seat=action.target)
    return replace(game, nominations=(*game.nominations, Nomination(action.by, action.target)))


def withdraw(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Withdraw)
    if not regulation.game.withdraw_nomination:
        raise GameLogRefused("game-log-no-withdrawal")
    if action.by != game.speaker or not any(n.by == action.by for n in game.nominations):
        raise GameLogRefused("game-log-nothing-to-withdraw", seat=action.by)
    return replace(game, nominations=tuple(n for n in game.nominations if n.by != action.by))


def cast_votes(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, CastVotes)
    voters = len(game.in_play)
    if len(action.counts) != len(game.candidates) or any(c < 0 for c in action.counts):
        raise GameLogRefused("game-log-bad-votes")
    if sum(action.counts) != voters:
        # 3.9: a player who does not vote votes for the last candidate: every vote is counted.
        raise GameLogRefused("game-log-votes-total", total=sum(action.counts), voters=voters)
    ballots = _ballots(game, action, regulation)
    record = VoteRecord(game.day, game.candidates, action.counts, ballots=ballots)
    game = replace(game, votes=(*game.votes, record))
    top = max(action.counts)
    leaders = tuple(s for s, c in zip(game.candidates, action.counts, strict=True) if c == top)
    if len(leaders) == 1:
        return _voted_out(game, leaders, regulation)
    flow = regulation.game
    if game.phase is Phase.VOTING and flow.split_vote:
        return _begin_turn(
            replace(game, phase=Phase.SPLIT_SPEECHES, candidates=leaders, order=leaders, position=0)
        )
    if (
        game.phase is Phase.REVOTE
        and flow.all_or_nobody_vote
        and voters >= flow.all_or_nobody_min_players
    ):
        return replace(game, phase=Phase.ALL_OR_NOBODY, candidates=leaders)
    # 10.4: a second tie with few players (or no further vote in this regulation): night.
    return to_night(game, regulation)


def _ballots(
    game: LiveGame, action: CastVotes, regulation: Regulation
) -> tuple[Ballot, ...] | None:
    """Who voted for whom, where the regulation records it: each player in play once, for a
    candidate, and the counts are theirs; elsewhere a vote has none."""
    if not regulation.game.record_ballots:
        if action.ballots is not None:
            raise GameLogRefused("game-log-bad-ballots")
        return None
    ballots = action.ballots
    voters = sorted(b.voter for b in ballots or ())
    if ballots is None or voters != list(game.in_play):
        raise GameLogRefused("game-log-bad-ballots")
    tally = tuple(sum(1 for b in ballots if b.target == c) for c in game.candidates)
    if tally != action.counts:
        raise GameLogRefused("game-log-bad-ballots")
    return ballots


def all_or_nobody(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, AllOrNobody)
    voters = len(game.in_play)
    if not 0 <= action.votes <= voters:
        raise GameLogRefused("game-log-votes-total", total=action.votes, voters=voters)
    record = VoteRecord(game.day, game.candidates, (action.votes,), all_or_nobody=True)
    game = replace(game, votes=(*game.votes, record))
    # A majority for leaving: all of them leave; against, or half and half: all stay.
    if action.votes * 2 > voters:
        return _voted_out(game, game.candidates, regulation)
    return to_night(game, regulation)


def _voted_out(game: LiveGame, seats: tuple[int, ...], regulation: Regulation) -> LiveGame:
    exits = game.exits
    for seat in seats:
        exits = with_seat(exits, seat, Exit.VOTED)
    del regulation  # the same for every regulation: the end, or the last words
    game = offer_end(replace(game, exits=exits, candidates=(), leaving=seats))
    if game.detected is not None:
        return game
    return replace(game, phase=Phase.LAST_WORDS)


def proceed_last_word(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _after_last_words(replace(game, leaving=game.leaving[1:]), regulation)


def _after_last_words(game: LiveGame, regulation: Regulation) -> LiveGame:
    if game.leaving:
        return game
    if game.phase is Phase.LAST_WORDS:
        return to_night(game, regulation)
    return start_day(game, regulation)


def to_night(game: LiveGame, _regulation: Regulation) -> LiveGame:
    return replace(
        game,
        phase=Phase.SHOT,
        night=game.day,
        order=(),
        position=0,
        silent=False,
        candidates=(),
        leaving=(),
        shot=None,
    )
