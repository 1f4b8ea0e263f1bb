"""Standings as players and the channel see them, and the pushes that keep the channel current.

After each confirmed protocol the tournament's pinned "live standings" message is edited in
place (sent and pinned the first time); each round and each stage closes with a post of its
own. Both go through the outbox in the caller's transaction, so a protocol and the standings it
changes are committed together. What the table looks like is the presenter's business (a port:
`bot/rendering` implements it in the channel's language).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from domain.lot import SettlesTies
from domain.lots import RecordedLot, recorded_lot
from domain.outgoing import Attachment, Drawing, OutgoingMessage, ScheduledPush
from domain.protocol import GameEnd, Side
from domain.registration import Participant, ParticipantStatus
from domain.regulation import Regulation
from domain.rounds import Round
from domain.scoring import SeatScore, score_game
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.standings import (
    CutReport,
    GameRecord,
    PlayerEntry,
    Standings,
    TeamEntry,
    compute_standings,
)
from domain.teams import Team
from domain.tournament import Tournament, TournamentState


@dataclass(frozen=True)
class PlayedGame:
    """A confirmed game and where its protest stands.

    Players in `record.protocol` are participant ids as strings (see `participant_key`).
    """

    record: GameRecord
    # When the regulation's protest window closes; None when the regulation has none.
    protest_closes_at: datetime | None = None
    protest_pending: bool = False

    def is_provisional(self, now: datetime) -> bool:
        """Whether the result may still change: the protest window is open or a protest waits."""
        window_open = self.protest_closes_at is not None and now < self.protest_closes_at
        return self.protest_pending or window_open


@dataclass(frozen=True)
class StandingsBoard:
    """Everything a standings table shows: the standings and what is not final in them."""

    title: str
    regulation: Regulation
    standings: Standings
    # The stage being played: its cut line is drawn. None before the first stage starts.
    stage: str | None
    # Players and teams whose points include a provisional game.
    provisional: frozenset[str]
    games: int
    provisional_games: int
    # The language of the tournament's channel: its posts of this board are written in it.
    locale: str = "ru"

    @property
    def cut(self) -> CutReport | None:
        """The cut of the stage being played, if it has one."""
        return next((cut for cut in self.standings.cuts if cut.stage == self.stage), None)


def participant_key(participant_id: int) -> str:
    """How a participant is named in protocols and standings rows."""
    return str(participant_id)


def standings_entries(
    participants: Iterable[Participant], teams: Iterable[Team], games: Iterable[PlayedGame]
) -> tuple[list[PlayerEntry], list[TeamEntry]]:
    """The players and teams a table lists: everyone registered, and whoever played a game
    (a replaced or excluded player keeps the points of the games he played)."""
    seated = {seat.player for game in games for seat in game.record.protocol.seats}
    players = [
        PlayerEntry(
            participant_key(p.id),
            p.nickname,
            participant_key(p.team_id) if p.team_id is not None else None,
            excluded=p.status is ParticipantStatus.EXCLUDED,
        )
        for p in participants
        if p.status is ParticipantStatus.REGISTERED or participant_key(p.id) in seated
    ]
    listed_teams = {player.team for player in players if player.team is not None}
    team_entries = [
        TeamEntry(participant_key(team.id), team.name)
        for team in teams
        if participant_key(team.id) in listed_teams
    ]
    return players, team_entries


def standings_board(
    title: str,
    regulation: Regulation,
    players: Sequence[PlayerEntry],
    teams: Sequence[TeamEntry],
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    stage: str | None,
    now: datetime,
) -> StandingsBoard:
    """The standings over `games` with the rows whose points are still provisional at `now`."""
    standings = compute_standings(regulation, players, teams, [g.record for g in games], lot)
    board = StandingsBoard(
        title=title,
        regulation=regulation,
        standings=standings,
        stage=stage,
        provisional=frozenset(),
        games=len(games),
        provisional_games=0,
    )
    return board_as_of(board, games, now)


def board_as_of(
    board: StandingsBoard, games: Sequence[PlayedGame], moment: datetime
) -> StandingsBoard:
    """The same standings, marking what is still provisional at `moment` (a protest window
    closes, a protest waits); the ranking itself does not depend on the time."""
    team_of = {row.id: row.team for row in board.standings.players}
    open_games = [game for game in games if game.is_provisional(moment)]
    provisional: set[str] = set()
    for game in open_games:
        for seat in game.record.protocol.seats:
            provisional.add(seat.player)
            team = team_of.get(seat.player)
            if team is not None:
                provisional.add(team)
    return replace(board, provisional=frozenset(provisional), provisional_games=len(open_games))


async def load_board(
    uow: UnitOfWork,
    tournament: Tournament,
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    now: datetime,
) -> StandingsBoard:
    """The board of a tournament from its participants and teams in the database."""
    participants = await uow.participants.of_tournament(tournament.id)
    teams = await uow.teams.of_tournament(tournament.id)
    players, team_entries = standings_entries(participants, teams, games)
    board = standings_board(
        tournament.title,
        tournament.regulation,
        players,
        team_entries,
        games,
        lot,
        tournament.current_stage,
        now,
    )
    return replace(board, locale=tournament.locale)


async def played_games(uow: UnitOfWork, tournament: Tournament) -> list[PlayedGame]:
    """Every confirmed game of the tournament that counts (an annulled one does not) with the
    closing time of its protest window and whether a protest against it is still open."""
    windows: dict[tuple[str, int, int], datetime | None] = {}
    protested: set[tuple[str, int, int]] = set()
    annulled: set[tuple[str, int, int]] = set()
    open_games = await uow.protests.open_games(tournament.id)
    annulled_games = await uow.annulments.of_tournament(tournament.id)
    for stage in tournament.regulation.stages:
        seated = await uow.rounds.stage(tournament.id, stage.id)
        for round_ in seated.rounds if seated is not None else ():
            for game in round_.games:
                where = (stage.id, round_.number, game.table)
                windows[where] = game.protest_until
                if game.id in open_games:
                    protested.add(where)
                if game.id in annulled_games:
                    annulled.add(where)
    played = []
    for record in await uow.protocols.results(tournament.id):
        where = (record.stage, record.round, record.table)
        if where not in annulled:
            played.append(PlayedGame(record, windows.get(where), where in protested))
    return played


async def stored_lot(uow: UnitOfWork, tournament_id: int) -> RecordedLot:
    """The tournament's lot: the chief judge's decisions, each settling the tie it was for."""
    return recorded_lot(await uow.lots.of_tournament(tournament_id))


async def compute_current(uow: UnitOfWork, tournament: Tournament) -> Standings:
    """The tournament's standings as they stand now: the one way every reader gets them.

    Computed on each read from the confirmed protocols, the participants, the teams and the
    lot decisions, so a substitute, an exclusion, a correction, an annulment, a lot or an
    import shows at once (a 1,000-player, 2,000-game tournament computes in about 0.13 s).
    Players are participant ids as strings: everyone registered and whoever played a game.
    Annulled games do not count; a tie surviving every tie-breaker is separated by the chief
    judge's decision on it, and shares its place until he decides it.
    """
    games = await played_games(uow, tournament)
    players, teams = standings_entries(
        await uow.participants.of_tournament(tournament.id),
        await uow.teams.of_tournament(tournament.id),
        games,
    )
    results = [game.record for game in games]
    lot = await stored_lot(uow, tournament.id)
    return compute_standings(tournament.regulation, players, teams, results, lot)


async def board_of_tournament(
    uow_factory: UnitOfWorkFactory, tournament_id: int, now: datetime
) -> StandingsBoard:
    """The tournament's board as it stands now, provisional results marked as of `now` (what
    the outbox draws when it sends the live table or the picture)."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            raise NotFound(f"tournament {tournament_id}")
        return await _board(uow, tournament, now)


async def current_standings(uow_factory: UnitOfWorkFactory, tournament_id: int) -> Standings:
    """The tournament's standings as they stand now (`compute_current` in a unit of work)."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            raise NotFound(f"tournament {tournament_id}")
        return await compute_current(uow, tournament)


# --- standings in a private chat -------------------------------------------------------------


@dataclass(frozen=True)
class PlayerGame:
    """One game of a player: where he sat, his role and what he earned, part by part."""

    stage: str
    round: int
    table: int
    score: SeatScore
    provisional: bool
    # How the game ended, with its winner (None: not recorded).
    end: GameEnd | None = None
    winner: Side | None = None


@dataclass(frozen=True)
class PlayerCard:
    """A player's line of the standings and every game behind it."""

    board: StandingsBoard
    player: str
    nickname: str
    games: tuple[PlayerGame, ...]


# Which of a person's tournaments /standings and /me speak of: the one being played first.
_STATE_ORDER = (
    TournamentState.RUNNING,
    TournamentState.REGISTRATION_CLOSED,
    TournamentState.REGISTRATION_OPEN,
    TournamentState.FINISHED,
    TournamentState.DRAFT,
)


async def _tournament_of(
    uow: UnitOfWork, user_id: int
) -> tuple[Tournament, Participant | None] | None:
    """The person's tournament as a player, or else as its organizer or judge."""
    playing: list[tuple[Tournament, Participant]] = []
    for tournament in await uow.tournaments.of_person(user_id, everything=True):
        participant = await uow.participants.of_person(tournament.id, user_id)
        if participant is not None:
            playing.append((tournament, participant))
    if playing:
        # Newest first already: `min` keeps the newest of the tournaments in the same state.
        tournament, participant = min(playing, key=lambda pair: _STATE_ORDER.index(pair[0].state))
        return tournament, participant
    staffed = await uow.tournaments.of_person(user_id)
    if not staffed:
        return None
    return min(staffed, key=lambda t: _STATE_ORDER.index(t.state)), None


async def _board(uow: UnitOfWork, tournament: Tournament, now: datetime) -> StandingsBoard:
    games = await played_games(uow, tournament)
    return await load_board(uow, tournament, games, await stored_lot(uow, tournament.id), now)


async def standings_of_person(
    uow_factory: UnitOfWorkFactory, user_id: int, now: datetime
) -> tuple[int, StandingsBoard] | None:
    """The standings of the person's tournament (and its id); None when he has none."""
    async with uow_factory() as uow:
        found = await _tournament_of(uow, user_id)
        if found is None:
            return None
        tournament = found[0]
        return tournament.id, await _board(uow, tournament, now)


async def standings_of_tournament(
    uow_factory: UnitOfWorkFactory, tournament_id: int, user_id: int, now: datetime
) -> StandingsBoard | None:
    """The standings of a tournament the person plays in, organizes or judges; None for any
    other tournament (a forged or stale button shows nothing)."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            return None
        playing = await uow.participants.of_person(tournament_id, user_id) is not None
        staffed = any(t.id == tournament_id for t in await uow.tournaments.of_person(user_id))
        if not (playing or staffed):
            return None
        return await _board(uow, tournament, now)


async def card_of_person(
    uow_factory: UnitOfWorkFactory, user_id: int, now: datetime
) -> PlayerCard | None:
    """The person's games and points in his tournament; None when he plays in none."""
    async with uow_factory() as uow:
        found = await _tournament_of(uow, user_id)
        if found is None or found[1] is None:
            return None
        tournament, participant = found
        games = await played_games(uow, tournament)
        board = await load_board(uow, tournament, games, await stored_lot(uow, tournament.id), now)
    return player_card(board, participant, games, now)


def player_card(
    board: StandingsBoard, participant: Participant, games: Iterable[PlayedGame], now: datetime
) -> PlayerCard:
    """A participant's games in the order played, each with his seat's score."""
    key = participant_key(participant.id)
    regulation = board.regulation
    mine = []
    for game in games:
        record = game.record
        for score in score_game(record.protocol, regulation):
            if score.player == key:
                provisional = game.is_provisional(now)
                protocol = record.protocol
                mine.append(
                    PlayerGame(
                        record.stage,
                        record.round,
                        record.table,
                        score,
                        provisional,
                        protocol.end,
                        protocol.winner,
                    )
                )
    mine.sort(key=lambda g: (regulation.stage_index(g.stage), g.round, g.table))
    return PlayerCard(board, key, participant.nickname, tuple(mine))


# --- pushes to the channel -------------------------------------------------------------------


@dataclass(frozen=True)
class RoundClosed:
    """The last protocol of a round is confirmed."""

    stage: str
    round: int


@dataclass(frozen=True)
class StageClosed:
    """The last round of a stage is closed."""

    stage: str


Closing = RoundClosed | StageClosed


@dataclass(frozen=True)
class ClosingPost:
    """A post closing a round or a stage: the table as pictures (drawn when they are sent,
    see `standings_picture`; a long table takes several) with `caption` on the first, then as
    text pages."""

    caption: str
    pages: tuple[str, ...]
    pictures: int = 1


class StandingsPresenter(Protocol):
    """Turns a board into the channel's messages (ready HTML, user strings escaped)."""

    def live(self, board: StandingsBoard) -> str:
        """The live table; it fits in one message, as an edit cannot be split."""
        ...

    def closing(self, board: StandingsBoard, closing: Closing) -> ClosingPost:
        """The post that closes a round or a stage."""
        ...


STANDINGS_PICTURE = "standings-picture"
LIVE_STANDINGS = "standings-live"


def standings_picture(tournament_id: int, page: int = 1) -> Attachment:
    """Picture `page` of the tournament's standings, drawn at send time: matplotlib takes most
    of a second for a large table, too long to hold a confirmation's transaction open."""
    pages = {"page": page} if page > 1 else {}
    drawing = Drawing.of(STANDINGS_PICTURE, tournament=tournament_id, **pages)
    return Attachment("photo", b"", "standings.png", drawing)


def refresh_prefix(tournament_id: int) -> str:
    """The key prefix of a tournament's live-table edits scheduled for protest windows' close."""
    return f"standings-refresh:{tournament_id}:"


def live_standings(tournament_id: int, moment: datetime) -> Drawing:
    """The live table drawn when its edit is sent: the standings as they stand then, with
    what is still provisional at `moment` marked (see `board_of_tournament`)."""
    return Drawing.of(LIVE_STANDINGS, tournament=tournament_id, at=moment.isoformat())


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
    presenter: StandingsPresenter,
    tournament_id: int,
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    *,
    protocol_key: str,
    now: datetime,
) -> bool:
    """Record the edit of the pinned live standings after the protocol `protocol_key` was
    confirmed; the caller commits it with the protocol.

    The first push sends and pins the message, later ones edit it in place. A protocol pushes
    at most one edit, however often its confirmation is retried. False when nothing was
    recorded: the tournament has no channel, or this protocol already pushed its edit.
    """
    tournament = await _tournament_with_channel(uow, tournament_id)
    if tournament is None:
        return False
    assert tournament.channel_id is not None
    board = await load_board(uow, tournament, games, lot, now)
    await _schedule_window_refreshes(uow, tournament, games, protocol_key, now)
    return await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text=presenter.live(board),
            edit_key=live_key(tournament_id),
            pin=True,
            tournament_id=tournament_id,
            dedupe_key=f"standings-live:{tournament_id}:{protocol_key}",
        )
    )


async def _schedule_window_refreshes(
    uow: UnitOfWork,
    tournament: Tournament,
    games: Sequence[PlayedGame],
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
    closing = sorted(
        {g.protest_closes_at for g in games if g.protest_closes_at and g.protest_closes_at > now}
    )
    wanted = {f"{prefix}{moment.isoformat()}": moment for moment in closing}
    waiting = await uow.scheduled_pushes.waiting(prefix)
    await uow.scheduled_pushes.cancel_many(sorted(set(waiting) - set(wanted)))
    for key, moment in wanted.items():
        if key in waiting and waiting[key].message.text_drawing is not None:
            continue
        message = OutgoingMessage(
            chat_id=tournament.channel_id,
            text_drawing=live_standings(tournament.id, moment),
            edit_key=live_key(tournament.id),
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
    presenter: StandingsPresenter,
    tournament_id: int,
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    closing: Closing,
    *,
    now: datetime,
) -> bool:
    """Record the channel post closing a round or a stage: the picture, then the text pages.

    A round or stage is closed once: a repeated call records nothing and returns False, as
    it does for a tournament without a channel.
    """
    tournament = await _tournament_with_channel(uow, tournament_id)
    if tournament is None:
        return False
    assert tournament.channel_id is not None
    board = await load_board(uow, tournament, games, lot, now)
    post = presenter.closing(board, closing)
    dedupe = f"standings-{_closing_name(closing)}:{tournament_id}"
    messages = [
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text=post.caption if page == 1 else "",
            attachment=standings_picture(tournament_id, page),
            tournament_id=tournament_id,
            dedupe_key=f"{dedupe}:picture" + (f":{page}" if page > 1 else ""),
        )
        for page in range(1, post.pictures + 1)
    ]
    messages += [
        OutgoingMessage(
            chat_id=tournament.channel_id,
            text=text,
            tournament_id=tournament_id,
            dedupe_key=f"{dedupe}:page:{number}",
        )
        for number, text in enumerate(post.pages, start=1)
    ]
    recorded = [await uow.outbox.add(message) for message in messages]
    return any(recorded)


async def _closings(
    uow: UnitOfWork, tournament: Tournament, stage: str, round_number: int
) -> list[Closing]:
    """What a result in round `round_number` of `stage` completes: the round once all its
    protocols are confirmed, then the stage once all its rounds are."""
    seated = await uow.rounds.stage(tournament.id, stage)
    if seated is None:
        return []
    confirmed = {
        (record.round, record.table)
        for record in await uow.protocols.results(tournament.id)
        if record.stage == stage
    }

    def complete(round_: Round) -> bool:
        return all((round_.number, game.table) in confirmed for game in round_.games)

    if not complete(seated.round(round_number)):
        return []
    closings: list[Closing] = [RoundClosed(stage, round_number)]
    if all(complete(round_) for round_ in seated.rounds):
        closings.append(StageClosed(stage))
    return closings


async def publish_after_result(
    uow: UnitOfWork,
    presenter: StandingsPresenter,
    tournament: Tournament,
    stage: str,
    round_number: int,
    *,
    result_key: str,
    now: datetime,
) -> None:
    """Record what the channel shows after a result of round `round_number` of `stage` was
    stored, annulled or settled (`result_key` names that change): the live standings edited
    once, and the posts closing the round and the stage the result completes (each posted
    once). The caller commits them with the result."""
    games = await played_games(uow, tournament)
    lot = await stored_lot(uow, tournament.id)
    await publish_live_standings(
        uow, presenter, tournament.id, games, lot, protocol_key=result_key, now=now
    )
    for closing in await _closings(uow, tournament, stage, round_number):
        await publish_closing_standings(uow, presenter, tournament.id, games, lot, closing, now=now)
