"""Use cases of a stage's rounds: seat the stage, preview and edit it, assign judges, publish.

The organizer seats the stage the tournament is in (the lifecycle's "start stage" chose it),
looks at the preview with its quality report, edits or regenerates it, and publishes round
after round. Publishing records, in the same transaction, a private message to every player
and judge and the channel's post; an edit after publishing records corrections for exactly
the people it concerns.

The package's modules, one job each: `preview` (what the organizer sees, and what every use
case here reads first), `seating` (seat, regenerate, re-seat), `edits` (swap, move),
`judges` (a table's judge), `publication` (publish a round; corrections after an edit),
`schedules` (every player's whole stage, and its corrections), `notices` (the private
messages they send). Each module's use cases are one service (`SeatingService`...), built once
in `domain.services.catalog`.
"""

from domain.services.rounds.preview import StagePreview, stage_sheet_of
from domain.services.rounds.schedules import (
    correct_schedules_after_substitute,
    schedules_before_substitute,
)

__all__ = [
    "StagePreview",
    "correct_schedules_after_substitute",
    "schedules_before_substitute",
    "stage_sheet_of",
]
