"""Use cases of the tournament day: check-in, no-shows, substitutes, exclusion by the judges."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TypedDict

from domain.actor import Actor
from domain.intents import CheckIn
from domain.outgoing import Button, OutgoingMessage, Phrase
from domain.permissions import Action, Forbidden
from domain.registration import Application, Participant, ParticipantStatus, check_nickname_free
from domain.services.access import authorize, load_tournament, notice, record
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.registration import locked_participant, tell_captain
from domain.services.rounds import (
    correct_schedules_after_substitute,
    schedules_before_substitute,
)
from domain.services.standings import played_games
from domain.services.standings_posts import publish_live_standings
from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid

# Check-in happens between the close of registration and the start (or during a late one).
CHECKIN_STATES = frozenset({TournamentState.REGISTRATION_OPEN, TournamentState.REGISTRATION_CLOSED})


class _TakesOver(TypedDict):
    """What a substitute takes over from the participant replaced."""

    status: ParticipantStatus
    team_id: int | None
    substitute_for: int
    checked_in: bool


def checkin_refusal(tournament: Tournament, now: datetime) -> str | None:
    """Why a player cannot confirm presence now (a text code), None when he can."""
    if tournament.state not in CHECKIN_STATES:
        return "checkin-closed"
    if tournament.checkin_cutoff is not None and now >= tournament.checkin_cutoff:
        return "checkin-cutoff-passed"
    return None


class CheckinService:
    """The tournament day's use cases: check-in, no-shows, substitutes, exclusion."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def check_in(self, actor: Actor, tournament_id: int) -> Participant:
        """A registered player confirms he is present, until the cut-off."""
        async with self._uow() as uow:
            await uow.tournaments.lock(tournament_id)  # before his row, as the judges' marks
            tournament = await load_tournament(uow, tournament_id, actor.now)
            participant = await uow.participants.of_person(tournament.id, actor.user_id)
            if participant is None or not participant.playing:
                raise Forbidden(Action.CHECK_IN)
            refused = checkin_refusal(tournament, actor.now)
            if refused is not None:
                await uow.commit()
                raise Invalid(refused)
            participant = replace(participant, checked_in=True)
            await uow.participants.save(participant)
            await uow.commit()
            return participant

    async def mark_no_show(
        self,
        actor: Actor,
        participant_id: int,
    ) -> Participant:
        """The organizer marks a registered player who did not come; his seats await a
        substitute."""
        async with self._uow() as uow:
            _, participant = await locked_participant(
                uow, actor, participant_id, Action.MARK_NO_SHOW
            )
            if not participant.missing:
                raise Invalid("no-show-not-missing", nickname=participant.nickname)
            participant = replace(participant, status=ParticipantStatus.NO_SHOW)
            await uow.participants.save(participant)
            await uow.commit()
            return participant

    async def exclude(
        self,
        actor: Actor,
        participant_id: int,
        reason: str,
    ) -> tuple[Participant, list[OutgoingMessage]]:
        """The chief judge excludes a player (regulation 11.3.3); his remaining seats are freed.

        He is told with the reason. He keeps the points of his games but takes no place in a cut:
        the channel's live table (once the tournament started) is edited at once to show him
        excluded."""
        async with self._uow() as uow:
            tournament, participant = await locked_participant(
                uow, actor, participant_id, Action.EXCLUDE
            )
            if not participant.playing:
                raise Invalid("exclude-not-playing", nickname=participant.nickname)
            participant = replace(participant, status=ParticipantStatus.EXCLUDED, reason=reason)
            await uow.participants.save(participant)
            notices = []
            if participant.user_id is not None:
                notices.append(
                    notice(
                        participant.user_id,
                        tournament.id,
                        "notice-excluded",
                        tournament=tournament.title,
                        reason=reason,
                    )
                )
            notices += await tell_captain(
                uow,
                tournament,
                None,
                participant,
                joined=False,
                left_key="notice-team-member-excluded",
            )
            await record(uow, notices)
            if tournament.has_started:
                await publish_live_standings(
                    uow,
                    tournament.id,
                    await played_games(uow, tournament),
                    protocol_key=f"excluded:{participant.id}",
                    now=actor.now,
                )
            await uow.commit()
        return participant, notices

    async def substitute(
        self,
        actor: Actor,
        replaced_id: int,
        *,
        waiting_id: int | None = None,
        newcomer: Application | None = None,
    ) -> tuple[Participant, list[OutgoingMessage]]:
        """Replace a no-show or excluded player by a waiting-list player or a new one.

        The substitute takes over the seats of the games not yet played and, in a team tournament,
        plays for the replaced player's team; the games already played keep the original player.
        """
        if (waiting_id is None) == (newcomer is None):
            raise ValueError("a substitute is either a waiting player or a newcomer")
        async with self._uow() as uow:
            tournament, replaced = await locked_participant(
                uow, actor, replaced_id, Action.SUBSTITUTE
            )
            # An excluded player stays excluded once replaced: his status alone would let a
            # second substitute take the seats the first one already plays.
            earlier = await uow.participants.substitute_of(replaced.id)
            if earlier is not None:
                raise Invalid(
                    "substitute-already-replaced",
                    nickname=replaced.nickname,
                    substitute=earlier.nickname,
                )
            if not replaced.replaceable:
                raise Invalid("substitute-not-replaceable", nickname=replaced.nickname)
            schedules = await schedules_before_substitute(uow, tournament)
            player = await _substitute_for(uow, actor, tournament, replaced, waiting_id, newcomer)
            new_status = (
                ParticipantStatus.REPLACED
                if replaced.status is not ParticipantStatus.EXCLUDED
                else ParticipantStatus.EXCLUDED
            )
            await uow.participants.save(replace(replaced, status=new_status))
            notices = _substitution_notices(tournament, replaced, player, new_status)
            # The captain hears of the substitute joining his team (and of the team complete again).
            notices += await tell_captain(uow, tournament, None, player, joined=True)
            await record(uow, notices)
            # The substitute's schedule, when the stage's schedules went out (docs/seating.md).
            await correct_schedules_after_substitute(uow, schedules)
            await uow.commit()
        return player, notices

    async def call_for_checkin(
        self,
        actor: Actor,
        tournament_id: int,
        call: str,
    ) -> list[OutgoingMessage]:
        """Ask every registered player who has not confirmed presence to press "I am here".

        `call` names the organizer's request (his button press): the same request handled again
        (its replica killed after this commit, before the webhook ledger heard it was handled)
        records no second call, while a new press calls again."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.MARK_NO_SHOW)
            refused = checkin_refusal(tournament, actor.now)
            if refused is not None:
                raise Invalid(refused)
            button = Button(Phrase.of("checkin-button"), CheckIn(tournament.id))
            messages = [
                replace(
                    notice(p.user_id, tournament.id, "notice-checkin", tournament=tournament.title),
                    buttons=((button,),),
                    dedupe_key=f"checkin-call:{tournament.id}:{call}:{p.user_id}",
                )
                for p in await uow.participants.of_tournament(tournament.id)
                if p.missing and p.user_id
            ]
            await record(uow, messages)
            await uow.commit()
            return messages


async def _substitute_for(
    uow: UnitOfWork,
    actor: Actor,
    tournament: Tournament,
    replaced: Participant,
    waiting_id: int | None,
    newcomer: Application | None,
) -> Participant:
    """The waiting player, or the newcomer, stored as playing in the replaced player's place."""
    takes_over: _TakesOver = {
        "status": ParticipantStatus.REGISTERED,
        "team_id": replaced.team_id,
        "substitute_for": replaced.id,
        "checked_in": True,
    }
    if waiting_id is not None:
        waiting = await uow.participants.get(waiting_id)
        if (
            waiting is None
            or waiting.tournament_id != tournament.id
            or waiting.status is not ParticipantStatus.WAITING
        ):
            raise Invalid("substitute-not-waiting")
        if not waiting.may_substitute:
            raise Invalid("substitute-already-substitutes", nickname=waiting.nickname)
        player = replace(waiting, **takes_over)
        await uow.participants.save(player)
        return player
    assert newcomer is not None
    check_nickname_free(
        newcomer.nickname, await uow.participants.rivals(tournament.id, newcomer.nickname)
    )
    return await uow.participants.add(
        Participant(
            id=0,
            tournament_id=tournament.id,
            user_id=None,
            nickname=newcomer.nickname,
            club=newcomer.club,
            city=newcomer.city,
            registered_at=actor.now,
            **takes_over,
        )
    )


def _substitution_notices(
    tournament: Tournament,
    replaced: Participant,
    player: Participant,
    new_status: ParticipantStatus,
) -> list[OutgoingMessage]:
    notices = []
    if player.user_id is not None:
        notices.append(
            notice(
                player.user_id,
                tournament.id,
                "notice-substitute",
                tournament=tournament.title,
                nickname=replaced.nickname,
            )
        )
    # An excluded player was told why already; a no-show learns that he was replaced.
    if replaced.user_id is not None and new_status is ParticipantStatus.REPLACED:
        notices.append(
            notice(
                replaced.user_id,
                tournament.id,
                "notice-replaced",
                tournament=tournament.title,
                nickname=player.nickname,
            )
        )
    return notices
