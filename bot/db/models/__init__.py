"""ORM models, one module per table family; importing this package registers them all."""

from bot.db.models.base import Base
from bot.db.models.conversations import ConversationRow
from bot.db.models.outbox import (
    MessageAnchorRow,
    OutboxRow,
    ScheduledPushRow,
    UnreachableChatRow,
)
from bot.db.models.tournaments import TournamentRow
from bot.db.models.users import UserRow

__all__ = [
    "Base",
    "ConversationRow",
    "MessageAnchorRow",
    "OutboxRow",
    "ScheduledPushRow",
    "TournamentRow",
    "UnreachableChatRow",
    "UserRow",
