"""Merging two accounts of one person: shown side by side, refused when both played in the
same tournament, written to the season's audit log, the ratings recomputed from the first
game of either."""

from __future__ import annotations

from domain.actor import Actor
from domain.permissions import Action, Forbidden
from domain.season.views import MergePreview
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rating_sync import recompute
from domain.services.season.profiles import _kept_person, build_profile
from domain.validation import Invalid


async def may_organize(uow: UnitOfWork, actor: Actor) -> None:
    """Refuse anyone but an admin or an organizer (appointed, or of any tournament)."""
    if actor.is_admin or await uow.staff.is_organizer(actor.user_id):
        return
    if await uow.tournaments.of_person(actor.user_id):
        return
    raise Forbidden(Action.EDIT_SETTINGS)


async def _overlap(uow: UnitOfWork, keep_id: int, merge_id: int) -> tuple[str, ...]:
    played: dict[int, set[int]] = {}
    titles: dict[int, str] = {}
    for participation in await uow.season.participations([keep_id, merge_id]):
        tournament = participation.tournament
        played.setdefault(tournament.tournament_id, set()).add(participation.person_id)
        titles[tournament.tournament_id] = tournament.title
    return tuple(titles[t] for t, persons in played.items() if len(persons) > 1)


async def _pair(uow: UnitOfWork, actor: Actor, keep_id: int, merge_id: int) -> MergePreview:
    await may_organize(uow, actor)
    keep = await _kept_person(uow, keep_id)
    merge = await _kept_person(uow, merge_id)
    if keep.id == merge.id:
        raise Invalid("season-merge-same")
    return MergePreview(
        await build_profile(uow, keep),
        await build_profile(uow, merge),
        await _overlap(uow, keep.id, merge.id),
    )


class MergeService:
    """Two accounts of one person shown side by side and merged."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def merge_preview(self, actor: Actor, keep_id: int, merge_id: int) -> MergePreview:
        """The two persons side by side, and the tournaments both played (a merge is refused
        then)."""
        async with self._uow() as uow:
            return await _pair(uow, actor, keep_id, merge_id)

    async def merge_persons(self, actor: Actor, keep_id: int, merge_id: int) -> None:
        """Merge `merge_id` into `keep_id`: his tournaments become the kept person's, the
        merge is logged and the ratings recomputed from the first game of either, in one
        transaction. Refused (`Invalid("season-merge-overlap")`) when both played in one
        tournament, and for a person merged with himself."""
        async with self._uow() as uow:
            preview = await _pair(uow, actor, keep_id, merge_id)
            if preview.overlap:
                raise Invalid("season-merge-overlap", tournaments=", ".join(preview.overlap))
            keep, merge = preview.keep, preview.merge
            await uow.ratings.lock()
            first = await uow.ratings.first_seq(person_ids=[keep.person_id, merge.person_id])
            await uow.season.merge(keep.person_id, merge.person_id)
            await uow.season.log(
                "merge",
                f"person {merge.person_id} ({merge.nickname}) merged into "
                f"person {keep.person_id} ({keep.nickname})",
                actor.user_id,
                actor.now,
                person_id=keep.person_id,
            )
            await recompute(uow, hint=first)
            await uow.commit()
