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
messages they send).
"""

from domain.services.rounds.edits import move, swap
from domain.services.rounds.judges import assign_judge
from domain.services.rounds.preview import StagePreview, stage_preview, stage_sheet_of
from domain.services.rounds.publication import publish_round
from domain.services.rounds.schedules import (
    correct_schedules_after_substitute,
    schedules_before_substitute,
    send_schedules,
)
from domain.services.rounds.seating import regenerate_stage, reseat_stage, start_stage

__all__ = [
    "StagePreview",
    "assign_judge",
    "correct_schedules_after_substitute",
    "move",
    "publish_round",
    "regenerate_stage",
    "reseat_stage",
    "schedules_before_substitute",
    "send_schedules",
    "stage_preview",
    "stage_sheet_of",
    "start_stage",
    "swap",
]
