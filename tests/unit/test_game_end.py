"""How a game ended: the ends by elimination, the regulation's special ends, and the rules
engine's checks that the recorded end and the winner agree."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import translator
from domain.cards import Side
from domain.game_end import GameEnd
from domain.protocol import ProtocolDraft, check_draft, end_time_errors, validate_protocol
from domain.regulation import RegulationError, load_preset, parse_regulation
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")


def codes(errors):
    return [error.code for error in errors]


def ended(end: GameEnd, winner: str):
    return replace(protocol(winner=winner), end=end)


def test_the_presets_name_the_special_ends_their_texts_have():
    # black-raven-cup 10.2 (three misses) and 9.1 (a defeat awarded); siberia-ural-teams the
    # four-players-three-nights rule.
    assert set(CUP.special_ends) == {GameEnd.MISSED_NIGHTS, GameEnd.AWARDED_DEFEAT}
    assert TEAMS.special_ends == (GameEnd.FOUR_PLAYERS_THREE_NIGHTS,)


@pytest.mark.parametrize(
    ("end", "winner"),
    [
        (GameEnd.BLACK_OUT, "red"),
        (GameEnd.PARITY, "black"),
        (GameEnd.MISSED_NIGHTS, "red"),
        (GameEnd.AWARDED_DEFEAT, "red"),
        (GameEnd.AWARDED_DEFEAT, "black"),
    ],
)
def test_a_cup_game_may_end_as_its_regulation_says(end, winner):
    assert validate_protocol(ended(end, winner), CUP) == []


def test_three_misses_give_red_the_game_never_black():
    assert codes(validate_protocol(ended(GameEnd.MISSED_NIGHTS, "black"), CUP)) == [
        "protocol-end-winner"
    ]
    assert codes(validate_protocol(ended(GameEnd.PARITY, "red"), CUP)) == ["protocol-end-winner"]


def test_an_end_the_regulation_does_not_name_is_refused():
    assert codes(validate_protocol(ended(GameEnd.MISSED_NIGHTS, "red"), TEAMS)) == [
        "protocol-end-not-allowed"
    ]
    assert codes(validate_protocol(ended(GameEnd.FOUR_PLAYERS_THREE_NIGHTS, "red"), CUP)) == [
        "protocol-end-not-allowed"
    ]
    assert validate_protocol(ended(GameEnd.FOUR_PLAYERS_THREE_NIGHTS, "red"), TEAMS) == []


def test_a_draft_refuses_an_end_that_contradicts_its_winner_at_once():
    draft = replace(ProtocolDraft(), winner=Side.BLACK, end=GameEnd.MISSED_NIGHTS)
    assert codes(check_draft(draft, CUP)) == ["protocol-end-winner"]
    # The end alone, the winner still to come, is no error yet.
    assert check_draft(replace(ProtocolDraft(), end=GameEnd.MISSED_NIGHTS), CUP) == []


@given(st.sampled_from(GameEnd), st.sampled_from(Side))
def test_an_allowed_end_passes_exactly_when_its_winner_agrees(end, winner):
    errors = codes(validate_protocol(ended(end, winner.value), CUP))
    allowed = not end.special or end in CUP.special_ends
    agrees = end.winner in (None, winner)
    assert ("protocol-end-not-allowed" not in errors) is allowed
    assert ("protocol-end-winner" not in errors) is agrees


def test_a_regulation_lists_only_special_ends_once_each():
    data = CUP.model_dump(mode="json")
    data["special_ends"] = ["black_out", "missed_nights", "missed_nights"]
    with pytest.raises(RegulationError) as refused:
        parse_regulation(data)
    assert [path for path, _ in refused.value.problems] == ["special_ends.0", "special_ends.2"]
    data["special_ends"] = ["no_such_end"]
    with pytest.raises(RegulationError):
        parse_regulation(data)


def test_the_refusals_read_in_the_community_words():
    error = validate_protocol(ended(GameEnd.MISSED_NIGHTS, "black"), CUP)[0]
    text = translator().get("ru", error.code, seat="", **error.args)
    assert text == "Три промаха чёрных подряд — это победа красных, а указана победа чёрных."
    error = validate_protocol(ended(GameEnd.MISSED_NIGHTS, "red"), TEAMS)[0]
    text = translator().get("ru", error.code, seat="", **error.args)
    assert text == "В регламенте турнира нет такого окончания игры: три промаха чёрных подряд."
    assert str(error) == "the regulation has no game end missed_nights"


@given(st.integers(min_value=-120, max_value=120))
def test_the_end_time_lies_between_the_publication_and_now(minutes: int) -> None:
    published = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
    now = published + timedelta(minutes=30)
    ended = now + timedelta(minutes=minutes)
    codes = [e.code for e in end_time_errors(ProtocolDraft(ended_at=ended), now, published)]
    if ended > now:
        assert codes == ["protocol-end-time-future"]
    elif ended < published:
        assert codes == ["protocol-end-time-early"]
    else:
        assert codes == []
