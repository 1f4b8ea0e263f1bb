"""Every router in the order the Dispatcher consults them.

Routers are built fresh for each Dispatcher (aiogram attaches a router to one parent only),
so tests and the offline simulation can run several bots in one process. Feature routers
come before `start`, which answers any deep-link payload nobody claimed, and `buttons`, which
answers any button press nobody claimed, comes last. The protocol screen's buttons come first
of all: thirty judges press them at a round's start, and a button's callback data begins with
its own prefix (`handlers/callbacks.py`), so the order of the routers' buttons changes nothing
but the filters a press runs through on its way. Likewise the menu's commands (/help, /start
without a payload, /lang) from a person in no wizard's step come before the rest
(`start.make_menu_router`).
"""

from __future__ import annotations

from aiogram import Router

from handlers import (
    buttons,
    checkin,
    errors,
    lists,
    lots,
    organizer,
    protests,
    protocol,
    registration,
    rounds,
    season,
    season_admin,
    season_card,
    seat_edits,
    staff,
    standings,
    start,
    streams,
    teams,
    timetable,
    wizard_timetable,
)


def all_routers() -> list[Router]:
    """A fresh list of the routers to include in a Dispatcher."""
    return [
        errors.make_router(),
        # The judges' presses, the busiest updates, first: their prefix is theirs alone.
        protocol.make_press_router(),
        # /help, /start and /lang from a person in no wizard: nobody else takes them then.
        start.make_menu_router(),
        # Before the organizer's: its /cancel ends the series' points upload.
        season_admin.make_router(),
        organizer.make_router(),
        timetable.make_router(),
        wizard_timetable.make_router(),
        staff.make_router(),
        registration.make_router(),
        teams.make_router(),
        checkin.make_router(),
        lists.make_router(),
        protocol.make_router(),
        rounds.make_router(),
        seat_edits.make_router(),
        streams.make_router(),
        protests.make_router(),
        lots.make_router(),
        standings.make_router(),
        season.make_router(),
        season_card.make_router(),
        start.make_router(),
        buttons.make_router(),
    ]
