"""The live game's rules: the regulation's order, votes, fouls, nights, the end, the protocol."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.game_log import (
    Action,
    AllOrNobody,
    CastVotes,
    Check,
    DealRoles,
    Disqualify,
    Exit,
    Extra,
    Finish,
    Foul,
    GameLogRefused,
    LiveGame,
    NameBestMove,
    Nominate,
    Phase,
    Proceed,
    Shoot,
    Withdraw,
    action_from_dict,
    action_to_dict,
    apply,
    replay,
    timer_seconds,
    to_draft,
)
from domain.protocol import Removal, check_draft
from domain.regulation import load_preset
from domain.scoring import score_game
from tests.examples import examples

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")
PLAYERS = tuple(f"p{seat}" for seat in range(1, 11))
# Seats 1-6 civilians, 7 sheriff, 8-9 mafia, 10 don.
CLASSIC = DealRoles((*(Role.CIVILIAN,) * 6, Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON))


def play(*actions: Action, regulation=CUP) -> LiveGame:
    return replay(actions, regulation)


def speeches(game: LiveGame, regulation=CUP, nominations: dict[int, int] | None = None):
    """Every speech of the day, with the nominations {speaker: target}."""
    actions: list[Action] = []
    nominations = nominations or {}
    while game.phase is Phase.SPEECHES:
        speaker = game.speaker
        assert speaker is not None
        if speaker in nominations:
            actions.append(Nominate(speaker, nominations[speaker]))
            game = apply(game, actions[-1], regulation)
        actions.append(Proceed())
        game = apply(game, actions[-1], regulation)
    return game, actions


def test_day_one_starts_from_seat_one_and_each_day_from_the_next_seat():
    game = play(CLASSIC, Proceed())
    assert game.phase is Phase.SPEECHES and game.day == 1
    assert game.order == tuple(range(1, 11))
    game, _ = speeches(game)
    assert game.phase is Phase.SHOT  # nobody nominated: night
    game = apply(game, Shoot(2), CUP)  # seat 2 is killed: day 2 starts from seat 3
    game = apply(apply(game, Proceed(), CUP), Proceed(), CUP)  # checks skipped
    assert game.phase is Phase.BEST_MOVE and game.first_killed == 2
    game = apply(game, NameBestMove((8, 9, 10)), CUP)
    assert game.phase is Phase.MORNING_LAST_WORD and game.speaker == 2
    game = apply(game, Proceed(), CUP)
    assert game.day == 2 and game.first_speaker == 3
    assert game.order == (3, 4, 5, 6, 7, 8, 9, 10, 1)


def test_a_single_candidate_on_day_one_is_not_voted_on():
    game, _ = speeches(play(CLASSIC, Proceed()), nominations={1: 8})
    assert game.phase is Phase.SHOT and all(game.alive(seat) for seat in range(1, 11))


def test_the_most_votes_leave_with_a_last_word_and_every_vote_is_counted():
    game, _ = speeches(play(CLASSIC, Proceed()), nominations={1: 8, 2: 9})
    assert game.phase is Phase.VOTING and game.candidates == (8, 9)
    with pytest.raises(GameLogRefused) as refused:
        apply(game, CastVotes((3, 3)), CUP)
    assert refused.value.code == "game-log-votes-total"
    game = apply(game, CastVotes((7, 3)), CUP)
    assert game.phase is Phase.LAST_WORDS and game.speaker == 8
    assert game.exits[7] is Exit.VOTED
    assert timer_seconds(game, CUP) == CUP.game.last_word_seconds
    assert apply(game, Proceed(), CUP).phase is Phase.SHOT


def test_a_tie_speaks_again_then_the_table_votes_all_or_nobody():
    game, _ = speeches(play(CLASSIC, Proceed()), nominations={1: 8, 2: 9, 3: 4})
    game = apply(game, CastVotes((4, 4, 2)), CUP)
    assert game.phase is Phase.SPLIT_SPEECHES and game.order == (8, 9)
    assert timer_seconds(game, CUP) == CUP.game.split_speech_seconds
    game = apply(apply(game, Proceed(), CUP), Proceed(), CUP)
    assert game.phase is Phase.REVOTE
    game = apply(game, CastVotes((5, 5)), CUP)
    assert game.phase is Phase.ALL_OR_NOBODY
    # Half and half: both stay.
    assert apply(game, AllOrNobody(5), CUP).phase is Phase.SHOT
    both = apply(game, AllOrNobody(6), CUP)
    assert both.phase is Phase.LAST_WORDS and both.leaving == (8, 9)
    assert timer_seconds(both, CUP) == CUP.game.split_last_word_seconds


def test_the_third_foul_takes_the_next_speech_and_the_fourth_removes_with_no_vote():
    game = play(CLASSIC, Foul(2), Foul(2), Foul(2), Proceed())
    game = apply(game, Proceed(), CUP)  # seat 1 speaks
    assert game.speaker == 2 and game.silent and timer_seconds(game, CUP) == 0
    game = apply(game, Nominate(2, 8), CUP)  # he may still nominate
    game = apply(game, Proceed(), CUP)
    assert game.speaker == 3 and not game.silent
    game = apply(game, Foul(2), CUP)
    assert game.exits[1] is Exit.FOULS and game.no_vote
    game, _ = speeches(game, nominations={3: 9})
    assert game.phase is Phase.SHOT
    draft = to_draft(game, PLAYERS)
    assert draft.seats[1].removed is Removal.FOULS and draft.seats[1].fouls == 4


def test_in_the_team_regulation_a_removal_sends_the_town_to_night():
    game = play(CLASSIC, Proceed(), Proceed(), Disqualify(5), regulation=TEAMS)
    assert game.phase is Phase.SHOT and game.exits[4] is Exit.DISQUALIFIED


def test_withdrawing_a_nomination_only_where_the_regulation_allows():
    cup = play(CLASSIC, Proceed(), Nominate(1, 5))
    with pytest.raises(GameLogRefused):
        apply(cup, Withdraw(1), CUP)
    teams = play(CLASSIC, Proceed(), Nominate(1, 5), Withdraw(1), regulation=TEAMS)
    assert teams.nominations == ()


def test_only_the_speaker_nominates_once_a_day():
    game = play(CLASSIC, Proceed(), Nominate(1, 5))
    for action in (Nominate(1, 6), Nominate(3, 6)):
        with pytest.raises(GameLogRefused):
            apply(game, action, CUP)


def _night(game: LiveGame, target: int | None, regulation=CUP) -> LiveGame:
    game = apply(game, Shoot(target), regulation)
    while game.phase in (Phase.DON_CHECK, Phase.SHERIFF_CHECK, Phase.BEST_MOVE):
        game = apply(game, Proceed(), regulation)
    if game.phase is Phase.MORNING_LAST_WORD:
        game = apply(game, Proceed(), regulation)
    return game


def test_three_missed_nights_give_red_the_win_10_2():
    game, _ = speeches(play(CLASSIC, Proceed()))
    for _ in range(2):
        game, _ = speeches(_night(game, None))
    game = apply(game, Shoot(None), CUP)
    assert game.phase is Phase.END_DETECTED
    assert game.detected is GameEnd.MISSED_NIGHTS


def test_black_equal_to_red_ends_the_game():
    game, _ = speeches(play(CLASSIC, Proceed()))
    for victim in (1, 2, 3):
        game, _ = speeches(_night(game, victim))
    # Seven left: 4 red, 3 black; one more kill makes it 3 against 3.
    game = _night(game, 4)
    assert game.detected is GameEnd.PARITY
    game = apply(game, Finish(Side.BLACK, GameEnd.PARITY), CUP)
    protocol = to_draft(game, PLAYERS).complete(CUP)
    assert protocol.winner is Side.BLACK and protocol.first_killed == 1
    assert protocol.best_move == ()


def test_the_checks_and_the_best_move_are_recorded():
    game, _ = speeches(play(CLASSIC, Proceed()))
    game = apply(game, Shoot(3), CUP)
    game = apply(apply(game, Check(7), CUP), Check(10), CUP)
    assert [(c.by, c.seat) for c in game.checks] == [(Role.DON, 7), (Role.SHERIFF, 10)]
    with pytest.raises(GameLogRefused):
        apply(game, NameBestMove((3, 8, 9)), CUP)  # names himself
    game = apply(game, NameBestMove((8, 9, 10)), CUP)
    assert game.best_move == (8, 9, 10)


def test_all_black_out_and_extra_points_at_the_end_score_through_the_rules_engine():
    game, _ = speeches(play(CLASSIC, Proceed()))
    game = _night(game, 2)
    for black, victim in ((8, 3), (9, 4)):
        game, _ = speeches(game, nominations={game.order[0]: black, game.order[1]: 1})
        game = apply(game, CastVotes((len(game.in_play), 0)), CUP)
        game = apply(game, Proceed(), CUP)
        game = _night(game, victim)
    game, _ = speeches(game, nominations={game.order[0]: 10, game.order[1]: 1})
    game = apply(game, CastVotes((len(game.in_play), 0)), CUP)
    assert game.detected is GameEnd.BLACK_OUT
    with pytest.raises(GameLogRefused):
        apply(game, Extra(1, Decimal("0.3")), CUP)  # extra points come after the end
    game = apply(game, Finish(Side.RED, GameEnd.BLACK_OUT), CUP)
    game = apply(game, Extra(1, Decimal("0.3")), CUP)
    with pytest.raises(GameLogRefused) as refused:
        apply(game, Extra(2, Decimal("0.7")), CUP)
    assert refused.value.code == "protocol-extra-above-max"
    protocol = to_draft(game, PLAYERS).complete(CUP)
    scores = score_game(protocol, CUP)
    assert scores[0].total == Decimal("2.3") and scores[9].total == 0


def test_four_players_three_quiet_nights_give_red_the_win_in_the_team_regulation():
    game, _ = speeches(play(CLASSIC, Proceed(), regulation=TEAMS), TEAMS)
    for victim, voted in ((1, 8), (2, 9), (3, 4)):
        game = _night(game, victim, TEAMS)
        game, _ = speeches(game, TEAMS, nominations={game.order[0]: voted})
        game = apply(game, CastVotes((len(game.in_play),)), TEAMS)
        game = apply(game, Proceed(), TEAMS)
    assert game.in_play == (5, 6, 7, 10)
    for _ in range(2):
        game, _ = speeches(_night(game, None, TEAMS), TEAMS)
    assert game.phase is Phase.SHOT
    game = apply(game, Shoot(None), TEAMS)
    assert game.detected is GameEnd.FOUR_PLAYERS_THREE_NIGHTS


def test_a_judge_ending_otherwise_gives_a_reason():
    game = play(CLASSIC, Proceed())
    with pytest.raises(GameLogRefused) as refused:
        apply(game, Finish(Side.BLACK, GameEnd.AWARDED_DEFEAT), CUP)
    assert refused.value.code == "game-log-finish-needs-comment"
    with pytest.raises(GameLogRefused) as refused:  # not a special end of this regulation
        apply(game, Finish(Side.RED, GameEnd.FOUR_PLAYERS_THREE_NIGHTS, "four"), CUP)
    assert refused.value.code == "protocol-end-not-allowed"
    game = apply(game, Finish(Side.BLACK, GameEnd.AWARDED_DEFEAT, "hints, 9.1"), CUP)
    assert game.phase is Phase.FINISHED and game.winner is Side.BLACK
    assert to_draft(game, PLAYERS).complete(CUP).end is GameEnd.AWARDED_DEFEAT


def test_roles_may_come_at_the_end():
    game = play(Proceed())
    game, _ = speeches(game)
    game = _night(game, 4)
    game = apply(game, Finish(Side.RED, None, "roles later"), CUP)
    game = apply(game, CLASSIC, CUP)
    assert to_draft(game, PLAYERS).complete(CUP).first_killed == 4


def test_bad_actions_are_refused_with_a_code():
    with pytest.raises(GameLogRefused) as refused:
        action_from_dict({"kind": "foul"})
    assert refused.value.code == "game-log-bad-action"
    with pytest.raises(GameLogRefused):
        action_from_dict({"kind": "votes", "counts": "nine"})
    with pytest.raises(GameLogRefused) as refused:
        apply(LiveGame(), Shoot(3), CUP)
    assert refused.value.code == "game-log-not-now"
    with pytest.raises(GameLogRefused):
        apply(LiveGame(), Foul(11), CUP)


# --- invariants ----------------------------------------------------------------------------

_seats = st.integers(1, 10)
_taps = st.one_of(
    st.builds(Nominate, _seats, _seats),
    st.builds(CastVotes, st.lists(st.integers(0, 10), max_size=4).map(tuple)),
    st.builds(AllOrNobody, st.integers(0, 10)),
    st.builds(Shoot, st.one_of(st.none(), _seats)),
    st.builds(Check, _seats),
    st.builds(NameBestMove, st.lists(_seats, max_size=3).map(tuple)),
    st.builds(Foul, _seats),
    st.builds(Disqualify, _seats),
    st.builds(Withdraw, _seats),
)
# Going on is the commonest tap, so games go deep.
_actions = st.integers(0, 9).flatmap(lambda n: st.just(Proceed()) if n < 6 else _taps)


def _played(actions: list[Action], regulation) -> tuple[LiveGame, list[Action]]:
    """The game of the actions the rules accept (the refused ones change nothing)."""
    game, kept = apply(LiveGame(), CLASSIC, regulation), [CLASSIC]
    for action in actions:
        if isinstance(action, Proceed) and game.phase is Phase.SHOT:
            alive = game.in_play
            action = Shoot(None if len(kept) % 4 == 0 else alive[len(kept) % len(alive)])
        if isinstance(action, Proceed) and game.candidates:
            action = CastVotes((len(kept) % 3,))
        if isinstance(action, CastVotes) and game.candidates:
            # Mostly well-formed votes, so games go deep.
            counts = [0] * len(game.candidates)
            counts[sum(action.counts) % len(counts)] = len(game.in_play)
            if len(counts) > 1 and len(action.counts) % 2:
                counts[0] = counts[-1] = len(game.in_play) // 2
                counts[-1] += len(game.in_play) % 2
            action = CastVotes(tuple(counts))
        try:
            game = apply(game, action, regulation)
        except GameLogRefused:
            continue
        kept.append(action)
    return game, kept


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(_actions, min_size=10, max_size=150),
    st.sampled_from(["black-raven-cup", "siberia-ural-teams"]),
)
# Three disqualified before the first kill: that kill makes black equal to red while the
# victim still names his best move.
@example(
    [Proceed()] * 17 + [Disqualify(1), Disqualify(2), Disqualify(7), Proceed(), Proceed()],
    "siberia-ural-teams",
)
def test_any_game_replays_to_a_protocol_the_rules_engine_accepts(actions, preset):
    regulation = load_preset(preset)
    game, kept = _played(actions, regulation)
    # The log is the record: replaying what was accepted gives the same game.
    assert replay(kept, regulation) == game
    # Serialized and read back, the log is the same.
    assert [action_from_dict(action_to_dict(a)) for a in kept] == kept
    # Fouls stay within the regulation's count, the removed are out.
    limit = regulation.penalties.fouls_for_removal
    for seat in range(1, 11):
        assert 0 <= game.fouls[seat - 1] <= limit
        if game.fouls[seat - 1] == limit:
            assert game.exits[seat - 1] is Exit.FOULS
    # Black never equals red while the game goes on. The night's victim leaves in the morning,
    # and the first victim names his best move before he leaves (it counts even when his death
    # ends the game).
    table = set(game.in_play)
    at_table = (Phase.DON_CHECK, Phase.SHERIFF_CHECK, Phase.BEST_MOVE)
    if game.phase in at_table and game.shot is not None:
        table.add(game.shot)
    black = sum(1 for s in table if game.roles[s - 1].side is Side.BLACK)
    if game.phase not in (Phase.END_DETECTED, Phase.FINISHED):
        assert 0 < black < len(table) - black
    # The speech order goes round the table from the day's first speaker.
    if game.phase is Phase.SPEECHES:
        assert list(game.order) == sorted(game.order, key=lambda s: (s - game.first_speaker) % 10)
        assert all(game.alive(s) for s in game.order)
    # Whatever the judge recorded, the draft breaks no rule; ended, it is a protocol.
    assert check_draft(to_draft(game, PLAYERS), regulation) == []
    winner = game.detected.winner if game.detected else Side.RED
    finished = apply(game, Finish(winner or Side.RED, game.detected, "end"), regulation)
    protocol = to_draft(finished, PLAYERS).complete(regulation)
    assert len(score_game(protocol, regulation)) == 10


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(_actions, max_size=80))
def test_undo_is_dropping_the_last_action(actions):
    _game, kept = _played(actions, CUP)
    for cut in range(1, len(kept)):
        assert apply(replay(kept[:cut], CUP), kept[cut], CUP) == replay(kept[: cut + 1], CUP)


def test_a_log_entry_keeps_the_action_the_moment_and_the_judge():
    from datetime import UTC, datetime

    from domain.game_log import Entry, entry_from_dict, entry_to_dict

    entry = Entry(Nominate(3, 8), datetime(2026, 5, 1, 12, 30, tzinfo=UTC), 777)
    assert entry_from_dict(entry_to_dict(entry)) == entry


def test_extra_points_carry_the_judges_comment_which_may_be_left_out():
    with_comment = Extra(3, Decimal("0.3"), "лучший анализ дня")
    assert action_from_dict(action_to_dict(with_comment)) == with_comment
    assert action_from_dict({"kind": "extra", "seat": 3, "points": "0.3"}) == Extra(
        3, Decimal("0.3")
    )
