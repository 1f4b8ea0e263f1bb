"""The live game at the table, as the judge follows it in the Mini App: a log of actions.

The log is the record (roles dealt, every speech, nomination, vote, shot, check, foul and the
end); the state of the game is what `replay` makes of it under the regulation in force, so a
game reopened after a reload or on another device is exactly where it was, and undoing is
dropping the last action. An action the rules do not allow now is refused with a
`GameLogRefused` whose `code` is a Fluent message id (bot/locales/*/miniapp.ftl) and changes
nothing.

The game runs in the regulation's order: the introduction night (the black team's meeting,
the sheriff), then each day the speeches from the right seat (day 1 from seat 1, each next day
from the seat after the previous day's first speaker), the nominations, the vote (the split
vote and the all-or-nobody vote where the regulation has them), the last words, then the night:
the shot or a miss, the don's and the sheriff's checks, the first victim's best move and his
last word. Fouls come at any moment with their consequences (the regulation's third foul takes
the next speech; the fourth, or a disqualification, removes the player and there is no vote that
day). The end is detected from the record (all black out, black equal to red, black missing
three nights in a row, four players and three nights without a kill) and offered; the judge
confirms it or ends the game otherwise with a reason.

The protocol is never scored here: `to_draft` turns the log into the `ProtocolDraft` that the
inline protocol screen fills, and the same rules engine (`domain.protocol`) validates and
`domain.scoring` scores it.

The package's modules, one section each: `actions` (the actions, a log entry and their JSON
form), `state` (the game the log makes), `play` (an action applied, or refused), `day`,
`night`, `end` (the end detected and offered), `draft` (the protocol draft a game makes).
"""

from domain.game_log.actions import (
    ACTIONS,
    Action,
    AllOrNobody,
    Ballot,
    CastVotes,
    Check,
    DealRoles,
    Disqualify,
    Entry,
    Extra,
    Finish,
    Foul,
    GameLogRefused,
    NameBestMove,
    Nominate,
    Proceed,
    Shoot,
    TechnicalFoul,
    Withdraw,
    action_from_dict,
    action_to_dict,
    entry_from_dict,
    entry_to_dict,
)
from domain.game_log.draft import to_draft
from domain.game_log.end import detect_end
from domain.game_log.play import apply, replay
from domain.game_log.state import (
    CheckRecord,
    Exit,
    FoulRecord,
    LiveGame,
    Nomination,
    Phase,
    VoteRecord,
    timer_seconds,
)

__all__ = [
    "ACTIONS",
    "Action",
    "AllOrNobody",
    "Ballot",
    "CastVotes",
    "Check",
    "CheckRecord",
    "DealRoles",
    "Disqualify",
    "Entry",
    "Exit",
    "Extra",
    "Finish",
    "Foul",
    "FoulRecord",
    "GameLogRefused",
    "LiveGame",
    "NameBestMove",
    "Nominate",
    "Nomination",
    "Phase",
    "Proceed",
    "Shoot",
    "TechnicalFoul",
    "VoteRecord",
    "Withdraw",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "detect_end",
    "entry_from_dict",
    "entry_to_dict",
    "replay",
    "timer_seconds",
    "to_draft",
]
