import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

import domain.protocol
from bot.i18n import translator
from domain.cards import Role, Side
from domain.protocol import (
    _ENGLISH,
    FirstKill,
    ProtocolDraft,
    ProtocolNotReady,
    Removal,
    check_draft,
    missing_items,
    validate_protocol,
)
from domain.regulation import load_preset
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")


def codes(errors):
    return [(error.code, error.seat) for error in errors]


@pytest.mark.parametrize("regulation", [CUP, TEAMS], ids=lambda r: r.id)
def test_a_correct_protocol_passes(regulation):
    game = protocol(first_killed=3, best_move=(8, 9, 10), extra={1: "0.5", 2: "0.5"}, fouls={4: 3})
    assert validate_protocol(game, regulation) == []


def test_ten_different_players_in_ten_seats():
    players = [f"p{n}" for n in range(1, 10)] + ["p2"]
    assert codes(validate_protocol(protocol(players), CUP)) == [("protocol-player-repeated", 10)]
    errors = validate_protocol(replace(protocol(), seats=protocol().seats[:9]), CUP)
    assert ("protocol-seat-count", None) in codes(errors)


def test_exactly_six_civilians_one_sheriff_two_mafia_one_don():
    errors = validate_protocol(protocol(roles="CCCCCSSMMD"), CUP)
    assert [(e.code, dict(e.args)) for e in errors] == [
        ("protocol-role-count", {"role": "civilian", "count": 5, "expected": 6}),
        ("protocol-role-count", {"role": "sheriff", "count": 2, "expected": 1}),
    ]


def test_fouls_from_zero_to_four_and_removal_for_the_fourth():
    assert codes(validate_protocol(protocol(fouls={2: 5}), CUP)) == [("protocol-fouls-range", 2)]
    assert codes(validate_protocol(protocol(fouls={2: 4}), CUP)) == [
        ("protocol-fouls-need-removal", 2)
    ]
    assert codes(validate_protocol(protocol(fouls={2: 2}, removed={2: "fouls"}), CUP)) == [
        ("protocol-removal-needs-fouls", 2)
    ]
    removed = protocol(fouls={2: 4, 3: 1}, removed={2: "fouls", 3: "disqualified"})
    assert validate_protocol(removed, CUP) == []


@pytest.mark.parametrize("removal", ["fouls", "disqualified"])
def test_a_removed_player_cannot_be_the_first_victim(removal):
    game = protocol(first_killed=2, fouls={2: 4 if removal == "fouls" else 0}, removed={2: removal})
    errors = validate_protocol(game, CUP)
    assert codes(errors) == [("protocol-first-killed-removed", 2)]
    assert errors[0].args == {"removal": removal}
    assert "cannot be shot" in str(errors[0])
    assert validate_protocol(replace(game, first_killed=3), CUP) == []


def test_best_move_only_after_a_first_night_kill_in_the_cup():
    night_two = protocol(first_killed=3, night=2, best_move=(8, 9, 10))
    assert codes(validate_protocol(night_two, CUP)) == [("protocol-best-move-not-first-night", 3)]
    assert validate_protocol(night_two, TEAMS) == []
    no_kill = protocol(best_move=(8, 9, 10))
    assert codes(validate_protocol(no_kill, CUP)) == [("protocol-best-move-without-victim", None)]


def test_best_move_names_at_most_three_other_distinct_seats():
    def errors(named):
        return codes(validate_protocol(protocol(first_killed=3, best_move=named), CUP))

    assert errors((8, 9, 10, 1)) == [("protocol-best-move-size", 3)]
    assert errors((8, 3)) == [("protocol-best-move-self", 3)]
    assert errors((8, 8)) == [("protocol-best-move-repeated", 3)]
    assert errors((11,)) == [("protocol-best-move-seat", 3)]


def test_a_killed_black_player_makes_no_best_move():
    game = protocol(first_killed=9, best_move=(8, 10, 1))
    assert [(e.code, e.args["role"]) for e in validate_protocol(game, CUP)] == [
        ("protocol-best-move-role", "mafia")
    ]


def test_extra_points_within_every_limit_of_the_cup():
    at_limits = protocol(extra={1: "0.5", 2: "0.3", 3: "0.2"})
    assert validate_protocol(at_limits, CUP) == []
    assert codes(validate_protocol(protocol(extra={1: "0.6"}), CUP)) == [
        ("protocol-extra-above-max", 1)
    ]
    assert codes(validate_protocol(protocol(extra={1: "0.25"}), CUP)) == [
        ("protocol-extra-step", 1)
    ]
    assert codes(validate_protocol(protocol(extra={1: "-0.1"}), CUP)) == [
        ("protocol-extra-negative", 1)
    ]
    over_total = protocol(extra={1: "0.5", 2: "0.4", 3: "0.2"})
    assert codes(validate_protocol(over_total, CUP)) == [("protocol-extra-total", None)]
    four = protocol(extra={1: "0.2", 2: "0.2", 3: "0.2", 4: "0.2"})
    assert codes(validate_protocol(four, CUP)) == [("protocol-extra-recipients", None)]


def test_extra_points_within_every_limit_of_the_team_tournament():
    assert validate_protocol(protocol(extra={1: "1.0", 2: "1.0"}), TEAMS) == []
    assert codes(validate_protocol(protocol(extra={1: "0.3"}), TEAMS)) == [
        ("protocol-extra-below-min", 1)
    ]
    first_killed = protocol(first_killed=4, extra={4: "0.5"})
    assert codes(validate_protocol(first_killed, TEAMS)) == [("protocol-extra-first-killed", 4)]
    assert validate_protocol(first_killed, CUP) == []


def test_every_error_reads_in_english_for_the_cli():
    error = validate_protocol(protocol(fouls={2: 5}), CUP)[0]
    assert str(error) == "seat 2: 5 fouls, allowed 0 to 4"


def test_every_error_and_missing_item_has_a_russian_and_an_english_text():
    protocol_source = Path(domain.protocol.__file__).read_text(encoding="utf-8")
    missing_codes = set(re.findall(r'"(protocol-missing-[a-z-]+)"', protocol_source))
    for code in set(_ENGLISH) | missing_codes:
        for locale in ("ru", "en"):
            assert code in translator().keys(locale), (code, locale)


def test_an_error_renders_with_its_seat_and_arguments():
    error = validate_protocol(protocol(roles="CCCCCCSMDD"), CUP)
    rendered = [translator().get("ru", e.code, seat=e.seat, **e.args) for e in error]
    assert "Роль «мафия»: за столом 1, а должно быть ровно 2." in rendered
    over = validate_protocol(protocol(extra={1: "0.6"}), CUP)[0]
    text = translator().get("ru", over.code, seat=over.seat, **over.args)
    assert text.startswith("Место 1:") and "0,6" in text


def test_draft_refuses_a_second_don_or_a_third_mafia_at_once():
    draft = ProtocolDraft().with_seat(1, role=Role.DON).with_seat(2, role=Role.DON)
    assert [e.args["role"] for e in check_draft(draft, CUP)] == ["don"]
    draft = ProtocolDraft()
    for seat in (1, 2, 3):
        draft = draft.with_seat(seat, role=Role.MAFIA)
    assert [e.args["count"] for e in check_draft(draft, CUP)] == [3]


def test_draft_refuses_a_best_move_from_a_seat_that_is_not_the_first_victim():
    draft = replace(ProtocolDraft(), first_kill=FirstKill(3), best_move_by=5, best_move=(8,))
    assert codes(check_draft(draft, CUP)) == [("protocol-best-move-not-victim", 5)]


def test_draft_refuses_extra_points_over_a_limit_and_the_same_player_twice():
    draft = ProtocolDraft().with_seat(1, player="p1", extra=Decimal("0.7"))
    draft = draft.with_seat(2, player="p1")
    assert codes(check_draft(draft, CUP)) == [
        ("protocol-player-repeated", 2),
        ("protocol-extra-above-max", 1),
    ]


def test_draft_tolerates_four_fouls_before_the_removal_is_pressed():
    draft = ProtocolDraft().with_seat(1, fouls=4)
    assert check_draft(draft, CUP) == []
    assert codes(check_draft(draft.with_seat(1, removed=Removal.DISQUALIFIED), CUP)) == [
        ("protocol-fouls-need-removal", 1)
    ]


def test_draft_lists_what_is_missing_and_completes_into_the_protocol():
    finished = protocol(first_killed=3, best_move=(8, 9, 10), extra={1: "0.5"})
    draft = ProtocolDraft()
    assert missing_items(draft, CUP) == [
        "protocol-missing-players",
        "protocol-missing-roles",
        "protocol-missing-winner",
        "protocol-missing-first-killed",
    ]
    for number, seat in enumerate(finished.seats, start=1):
        draft = draft.with_seat(number, player=seat.player, role=seat.role, extra=seat.extra)
    draft = replace(draft, winner=Side.RED, first_kill=FirstKill(3))
    assert missing_items(draft, CUP) == ["protocol-missing-best-move"]
    with pytest.raises(ProtocolNotReady) as raised:
        draft.complete(CUP)
    assert raised.value.missing == ["protocol-missing-best-move"]
    draft = replace(draft, best_move_by=3, best_move=(8, 9, 10))
    assert missing_items(draft, CUP) == []
    assert draft.complete(CUP) == finished


def test_no_best_move_is_asked_after_a_kill_on_night_two_in_the_cup():
    draft = replace(ProtocolDraft(), first_kill=FirstKill(3, night=2))
    assert "protocol-missing-best-move" not in missing_items(draft, CUP)
    assert "protocol-missing-best-move" in missing_items(draft, TEAMS)


def test_complete_refuses_a_draft_that_breaks_a_rule():
    draft = ProtocolDraft.from_protocol(protocol(roles="CCCCCCCMMD"))
    with pytest.raises(ProtocolNotReady) as raised:
        draft.complete(CUP)
    assert [e.code for e in raised.value.errors] == ["protocol-role-count"] * 2
