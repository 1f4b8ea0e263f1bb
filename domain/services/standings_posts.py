"""Publishing the standings: the pushes that keep the tournament's channel current.

After each confirmed protocol (an exclusion, an annulment, a lot) the tournament's pinned
"live standings" message is edited in place (sent and pinned the first time); each round and
each stage closes with a post of its own. Both are recorded in the outbox in the caller's
transaction, so a result and the posts it causes are committed together. What they look like
is decided when they are sent: a post records what happened (the live table of tournament 7
as of a moment, round 3 of the qualifying closed) and the outbox worker draws it then, in the
channel's language, from the standings as they stand (`bot/delivery/drawers.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from domain.lot_draw import SettlesTies
from domain.outgoing import Attachment, Drawing, OutgoingMessage, Phrase, ScheduledPush
from domain.services.ports import UnitOfWork
from domain.services.standings import load_board, played_games, protest_closings, stored_lot
from domain.standings_board import (
    Closing,
    PlayedGame,
    RoundClosed,
    StageClosed,
    closing_heading,
)
from domain.tournament import Tournament

# The drawers the outbox worker knows (`bot/delivery/drawers.py`), by the name a drawing gives.
STANDINGS_ALBUM = "standings-album"
LIVE_STANDINGS = "standings-live"
CLOSING_STANDINGS = "standings-closing"
RESULTS_STANDINGS = "standings-results"


def standings_album(tournament_id: int) -> Attachment:
    """Every picture of the tournament's standings as one album, drawn at send time: matplotlib
    takes most of a second for a large table, too long to hold a confirmation's transaction
    open."""
    drawing = Drawing.of(STANDINGS_ALBUM, tournament=tournament_id)
    return Attachment("album", b"", "standings.png", drawing)


def refresh_prefix(tournament_id: int) -> str:
    """The key prefix of a tournament's live-table edits scheduled for protest windows' close."""
    return f"standings-refresh:{tournament_id}:"


def live_standings(tournament_id: int, moment: datetime) -> Drawing:
    """The live table drawn when its edit is sent: the standings as they stand then, with
    what is still provisional at `moment` marked (see `board_of_tournament`)."""
    return Drawing.of(LIVE_STANDINGS, tournament=tournament_id, at=moment.isoformat())


def closing_standings(tournament_id: int, closing: Closing, moment: datetime) -> Drawing:
    """The whole table closing a round or a stage, drawn when it is sent (pages cut between
    rows, the closing's heading on the first), with what is provisional at `moment` marked."""
    round_number = closing.round if isinstance(closing, RoundClosed) else 0
    return Drawing.of(
        CLOSING_STANDINGS,
        tournament=tournament_id,
        stage=closing.stage,
        round=round_number,
        at=moment.isoformat(),
    )


def results_standings(tournament_id: int, moment: datetime) -> Drawing:
    """The finished tournament's results (the podium, then the final table), drawn when sent
    from the standings as they stand, as of `moment`, when the tournament was finished."""
    return Drawing.of(RESULTS_STANDINGS, tournament=tournament_id, at=moment.isoformat())


def closing_of(drawing: Mapping[str, str | int]) -> Closing:
    """The round or stage a `closing_standings` drawing closes."""
    stage, round_number = str(drawing["stage"]), int(drawing["round"])
    return RoundClosed(stage, round_number) if round_number else StageClosed(stage)


def live_key(tournament_id: int) -> str:
    """The edit-in-place key of a tournament's pinned live standings message."""
    return f"standings:{tournament_id}"


async def _tournament_with_channel(uow: UnitOfWork, tournament_id: int) -> Tournament | None:
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        raise LookupError(f"no tournament {tournament_id}")
    return tournament if tournament.channel_id is not None else None


async def publish_live_standings(
    uow: UnitOfWork,
    tournament_id: int,
    games: Sequence[PlayedGame],
    *,
    protocol_key: str,
    now: datetime,
) -> bool:
    """Record the edit of the pinned live standings after the protocol `protocol_key` was
    confirmed; the caller commits it with the protocol.

    The first push sends and pins the message, later ones edit it in place. A protocol pushes
    at most one edit, however often its confirmation is retried. The table is drawn when the
    edit is sent, in the channel's language, from the standings as they stand then (with what
    is provisional at `now` marked), like every other push. False when nothing was recorded:
    the tournament has no channel, or this protocol already pushed its edit. The
    tournament's web page is marked changed either way (`UnitOfWork.changed_tournaments`).
    """
    closings = {g.protest_closes_at for g in games if g.protest_closes_at is not None}
    return await _publish_live(uow, tournament_id, closings, protocol_key, now)


async def refresh_live_link(
    uow: UnitOfWork, tournament: Tournament, key: str, now: datetime
) -> bool:
    """Record an edit of the pinned live table after the page's visibility changed (`key`
    names the change), so that its link follows: none for an unlisted or closed page. A
    tournament without a confirmed game has no live table yet and gets none."""
    if tournament.channel_id is None or not await uow.protocols.results(tournament.id):
        return False
    return await _publish_live(uow, tournament.id, set(), key, now)


async def _publish_live(
    uow: UnitOfWork, tournament_id: int, closings: set[datetime], protocol_key: str, now: datetime
) -> bool:
    """`publish_live_standings` with the moments the games' protest windows close."""
    uow.changed_tournaments.add(tournament_id)
    tournament = await _tournament_with_channel(uow, tournament_id)
    if tournament is None:
        return False
    assert tournament.channel_id is not None
    await _schedule_window_refreshes(uow, tournament, closings, protocol_key, now)
    return await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text_drawing=live_standings(tournament_id, now),
            edit_key=live_key(tournament_id),
            pin=True,
            tournament_id=tournament_id,
            dedupe_key=f"standings-live:{tournament_id}:{protocol_key}",
        )
    )


async def _schedule_window_refreshes(
    uow: UnitOfWork,
    tournament: Tournament,
    closings: set[datetime],
    protocol_key: str,
    now: datetime,
) -> None:
    """An edit of the live table scheduled for the moment each open protest window closes:
    a result stops being marked provisional without waiting for the next protocol (the last
    round has none). The table is drawn when the edit is sent, so one push per closing moment
    serves every later result: a confirmation adds at most its own window's, however many
    windows are open (no table rendered, nothing rewritten)."""
    assert tournament.channel_id is not None
    prefix = refresh_prefix(tournament.id)
    wanted = {
        f"{prefix}{moment.isoformat()}": moment for moment in sorted(closings) if moment > now
    }
    waiting = await uow.scheduled_pushes.waiting(prefix)
    await uow.scheduled_pushes.cancel_many(sorted(set(waiting) - set(wanted)))
    for key, moment in wanted.items():
        if key in waiting and waiting[key].message.text_drawing is not None:
            continue
        message = OutgoingMessage(
            chat_id=tournament.channel_id,
            text_drawing=live_standings(tournament.id, moment),
            edit_key=live_key(tournament.id),
            # Pinned like the result's edit (only a table posted anew is pinned), so either
            # may supersede the other while both wait.
            pin=True,
            tournament_id=tournament.id,
            dedupe_key=f"{key}:{protocol_key}",
        )
        await uow.scheduled_pushes.schedule(ScheduledPush(key, moment, message))


def _closing_name(closing: Closing) -> str:
    if isinstance(closing, RoundClosed):
        return f"round:{closing.stage}:{closing.round}"
    return f"stage:{closing.stage}"


async def publish_closing_standings(
    uow: UnitOfWork,
    tournament_id: int,
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    closing: Closing,
    *,
    now: datetime,
) -> bool:
    """Record the channel post closing a round or a stage: the pictures as one album (the
    closing's heading as its caption), then the whole table as text pages, all drawn when
    they are sent in the channel's language.

    A round or stage is closed once: a repeated call records nothing and returns False, as
    it does for a tournament without a channel.
    """
    tournament = await _tournament_with_channel(uow, tournament_id)
    if tournament is None:
        return False
    assert tournament.channel_id is not None
    board = await load_board(uow, tournament, games, lot, now)
    dedupe = f"standings-{_closing_name(closing)}:{tournament_id}"
    messages = [
        OutgoingMessage(
            chat_id=tournament.channel_id,
            phrase=closing_heading(board, closing),
            attachment=standings_album(tournament_id),
            tournament_id=tournament_id,
            dedupe_key=f"{dedupe}:pictures",
        ),
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text_drawing=closing_standings(tournament_id, closing, now),
            tournament_id=tournament_id,
            dedupe_key=f"{dedupe}:pages",
        ),
    ]
    return await uow.outbox.add_many(messages) > 0


async def _closings(
    uow: UnitOfWork, tournament: Tournament, stage: str, round_number: int
) -> list[Closing]:
    """What a result in round `round_number` of `stage` completes: the round once all its
    protocols are confirmed, then the stage once all its rounds are."""
    # One light query: where each game of the stage is and whether its protocol is stored
    # (no seats and no protocol bodies read).
    rounds: dict[int, list[bool]] = {}
    for place in await uow.rounds.game_places(tournament.id, stage):
        rounds.setdefault(place.round, []).append(place.confirmed)
    games = rounds.get(round_number)
    if not games or not all(games):
        return []
    closings: list[Closing] = [RoundClosed(stage, round_number)]
    if all(all(confirmed) for confirmed in rounds.values()):
        closings.append(StageClosed(stage))
    return closings


async def publish_after_result(
    uow: UnitOfWork,
    tournament: Tournament,
    stage: str,
    round_number: int,
    *,
    result_key: str,
    now: datetime,
) -> None:
    """Record what the channel shows after a result of round `round_number` of `stage` was
    stored, annulled or settled (`result_key` names that change): the live standings edited
    once, and the post closing the round the result completes, or its stage when that was
    the stage's last round (each posted once). The caller commits them with the result. Only
    a closing post reads the results (its heading): the live table is drawn when sent and
    needs only the windows."""
    windows = await protest_closings(uow, tournament)
    await _publish_live(uow, tournament.id, windows, result_key, now)
    closings = await _closings(uow, tournament, stage, round_number)
    if not closings:
        return
    games = await played_games(uow, tournament)
    lot = await stored_lot(uow, tournament.id)
    # The stage's last round closes the stage: one post, the stage's, shows that table.
    await publish_closing_standings(uow, tournament.id, games, lot, closings[-1], now=now)


async def publish_results(uow: UnitOfWork, tournament: Tournament, now: datetime) -> bool:
    """Record the channel's post announcing the finished tournament: the winner, the podium
    (the teams' too in a team tournament) and the final table as text, then the final table's
    pictures as one album. Nothing is provisional by then: the tournament finishes only once
    every protest window has closed. Posted once; False without a channel. The tournament's
    web page, which shows the same podium, is marked changed either way."""
    uow.changed_tournaments.add(tournament.id)
    if tournament.channel_id is None:
        return False
    dedupe = f"standings-results:{tournament.id}"
    messages = [
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text_drawing=results_standings(tournament.id, now),
            tournament_id=tournament.id,
            dedupe_key=f"{dedupe}:pages",
        ),
        OutgoingMessage(
            chat_id=tournament.channel_id,
            phrase=Phrase.of("standings-results-table", tournament=tournament.title),
            attachment=standings_album(tournament.id),
            tournament_id=tournament.id,
            dedupe_key=f"{dedupe}:pictures",
        ),
    ]
    return await uow.outbox.add_many(messages) > 0
