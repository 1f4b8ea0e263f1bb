"""ORM models, one module per table family; importing this package registers them all."""

from bot.db.models.base import Base
from bot.db.models.conversations import ConversationRow
from bot.db.models.invites import InviteRow
from bot.db.models.leases import HandledUpdateRow, LeaseRow
from bot.db.models.lots import AnnulledGameRow, LotDecisionRow
from bot.db.models.menus import CommandMenuRow
from bot.db.models.outbox import (
    MessageAnchorRow,
    OutboxRow,
    ScheduledPushRow,
    UnreachableChatRow,
)
from bot.db.models.participants import ParticipantRow
from bot.db.models.protests import AuditEntryRow, ProtestRow, ProtestSwitchRow
from bot.db.models.protocols import (
    GameLogRow,
    ProtocolCorrectionRow,
    ProtocolDraftRow,
    ProtocolRow,
    StandingsRow,
    StreamLinkRow,
)
from bot.db.models.rounds import GameRow, GameSeatRow, RoundRow, StageRow
from bot.db.models.season import (
    ClubAliasRow,
    PersonRatingRow,
    PersonRow,
    RatingEventRow,
    RatingStateRow,
    SeasonAuditRow,
    SeasonSeriesRow,
)
from bot.db.models.staff import OrganizerRow, StaffRow
from bot.db.models.teams import TeamRow
from bot.db.models.tournaments import TournamentRow
from bot.db.models.users import UserRow

__all__ = [
    "AnnulledGameRow",
    "AuditEntryRow",
    "Base",
    "ClubAliasRow",
    "CommandMenuRow",
    "ConversationRow",
    "GameLogRow",
    "GameRow",
    "GameSeatRow",
    "HandledUpdateRow",
    "InviteRow",
    "LeaseRow",
    "LotDecisionRow",
    "MessageAnchorRow",
    "OrganizerRow",
    "OutboxRow",
    "ParticipantRow",
    "PersonRatingRow",
    "PersonRow",
    "ProtestRow",
    "ProtestSwitchRow",
    "ProtocolCorrectionRow",
    "ProtocolDraftRow",
    "ProtocolRow",
    "RatingEventRow",
    "RatingStateRow",
    "RoundRow",
    "ScheduledPushRow",
    "SeasonAuditRow",
    "SeasonSeriesRow",
    "StaffRow",
    "StageRow",
    "StandingsRow",
    "StreamLinkRow",
    "TeamRow",
    "TournamentRow",
    "UnreachableChatRow",
    "UserRow",
]
