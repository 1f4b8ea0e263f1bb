"""Who voted for whom (the regulation's `game.record_ballots`, as Polemica records it) and
technical fouls (their own count): in the log, its JSON form, the protocol it makes, the
stored protocol and the tournament file."""

from __future__ import annotations

import json

import pytest

from bot.db.repositories.protocols import _draft, _draft_json
from domain.cards import Role
from domain.game_log import (
    Action,
    Ballot,
    CastVotes,
    DealRoles,
    Foul,
    GameLogRefused,
    Nominate,
    Phase,
    Proceed,
    TechnicalFoul,
    action_from_dict,
    action_to_dict,
    replay,
    to_draft,
)
from domain.interchange import dumps_tournament, load_tournament, parse_tournament
from domain.regulation import Regulation, load_preset

pytestmark = pytest.mark.unit
CUP = load_preset("black-raven-cup")
BALLOTS = CUP.model_copy(update={"game": CUP.game.model_copy(update={"record_ballots": True})})
CLASSIC = DealRoles((*(Role.CIVILIAN,) * 6, Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON))
PLAYERS = tuple(f"p{seat}" for seat in range(1, 11))
# Day 1: 1 nominates 8, 2 nominates 3, then the speeches end: the vote on 8 and 3.
TO_VOTE: list[Action] = [CLASSIC, Proceed(), Nominate(1, 8), Proceed(), Nominate(2, 3)]
TO_VOTE += [Proceed()] * 9


def _ballots(for_eight: set[int]) -> tuple[Ballot, ...]:
    return tuple(Ballot(seat, 8 if seat in for_eight else 3) for seat in range(1, 11))


def test_the_setting_is_off_in_both_presets() -> None:
    assert not CUP.game.record_ballots
    assert not load_preset("siberia-ural-teams").game.record_ballots


def test_a_vote_records_who_voted_for_whom_where_the_regulation_asks() -> None:
    ballots = _ballots({1, 2, 4, 5, 6, 7, 10})
    game = replay([*TO_VOTE, CastVotes((7, 3), ballots)], BALLOTS)
    assert game.phase is Phase.LAST_WORDS and game.leaving == (8,)
    assert game.votes[-1].ballots == ballots


@pytest.mark.parametrize(
    ("regulation", "vote"),
    [
        # Counts alone where the regulation records ballots.
        (BALLOTS, CastVotes((7, 3))),
        # Ballots that do not add up to the counts.
        (BALLOTS, CastVotes((7, 3), _ballots({1, 2}))),
        # A player missing, one twice.
        (BALLOTS, CastVotes((7, 3), (*_ballots({1, 2, 4, 5, 6, 7, 10})[:-1], Ballot(1, 8)))),
        # Ballots where the regulation records none.
        (CUP, CastVotes((7, 3), _ballots({1, 2, 4, 5, 6, 7, 10}))),
    ],
)
def test_wrong_ballots_are_refused(regulation: Regulation, vote: CastVotes) -> None:
    game = replay(TO_VOTE, regulation)
    with pytest.raises(GameLogRefused) as refused:
        replay([*TO_VOTE, vote], regulation)
    assert refused.value.code == "game-log-bad-ballots"
    assert game.phase is Phase.VOTING


def test_ballots_in_json_and_a_vote_without_them_as_before() -> None:
    vote = CastVotes((7, 3), _ballots({1, 2, 4, 5, 6, 7, 10}))
    data = action_to_dict(vote)
    assert data["ballots"][0] == {"voter": 1, "target": 8}
    assert action_from_dict(json.loads(json.dumps(data))) == vote
    assert action_to_dict(CastVotes((7, 3))) == {"kind": "votes", "counts": [7, 3]}
    for junk in ("x", [1], [{"voter": "a", "target": 8}], [{"voter": 1}]):
        with pytest.raises(GameLogRefused):
            action_from_dict({"kind": "votes", "counts": [7, 3], "ballots": junk})


def test_technical_fouls_have_their_own_count() -> None:
    game = replay([CLASSIC, Proceed(), *[TechnicalFoul(4)] * 5, Foul(4)], CUP)
    # Five technical fouls neither silence nor remove; the fouls count apart.
    assert game.technical[3] == 5 and game.fouls[3] == 1
    assert game.alive(4) and 4 not in game.silenced
    draft = to_draft(game, PLAYERS)
    assert draft.seats[3].technical == 5 and draft.seats[3].fouls == 1
    # The stored protocol keeps them (and writes nothing where there are none).
    stored = _draft_json(draft)
    assert stored["seats"][3]["technical"] == 5 and "technical" not in stored["seats"][0]
    assert _draft(json.loads(json.dumps(stored))) == draft
    assert action_from_dict(action_to_dict(TechnicalFoul(4))) == TechnicalFoul(4)
    with pytest.raises(GameLogRefused):
        replay([CLASSIC, TechnicalFoul(11)], CUP)


def test_the_tournament_file_carries_technical_fouls() -> None:
    from tests.unit.test_interchange import document, problems

    data = document()
    data["games"][0]["seats"][1]["technical"] = 2
    tournament = parse_tournament(data)
    assert tournament.games[0].protocol.seats[1].technical == 2
    written = json.loads(dumps_tournament(tournament))["games"][0]["seats"]
    assert written[1]["technical"] == 2 and "technical" not in written[0]
    assert load_tournament(dumps_tournament(tournament)) == tournament
    data["games"][0]["seats"][1]["technical"] = -1
    assert any("technical must be a whole number" in p for p in problems(data))
