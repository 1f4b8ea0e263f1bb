"""The creation wizard's typed answers: what each step's text gives the wizard's data, or
`Invalid` when it cannot be taken (the wizard itself is `handlers/organizer.py`)."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

from domain import validation
from domain.regulation import Regulation, TimetableDay, load_preset, parse_regulation
from domain.services.ports import Clock
from domain.validation import Invalid


def regulation_of(data: dict[str, Any]) -> Regulation:
    """The regulation the wizard's data names: a preset, or the file the organizer sent."""
    if data.get("regulation_json"):
        return parse_regulation(json.loads(data["regulation_json"], parse_float=Decimal))
    return load_preset(data["regulation_id"])


def days_of(data: dict[str, Any], regulation: Regulation) -> tuple[TimetableDay, ...]:
    """The timetable the wizard holds: the one being edited, else the regulation's."""
    if data.get("timetable_json"):
        return tuple(TimetableDay.model_validate(day) for day in json.loads(data["timetable_json"]))
    return regulation.timetable


async def accept_answer(
    step: str, text: str, data: dict[str, Any], bot: Bot, clock: Clock
) -> dict[str, Any]:
    """The wizard data a typed answer to `step` gives; `Invalid` if it cannot be taken."""
    today = clock.now().date()
    if step == "title":
        return {"title": validation.title(text)}
    if step == "city":
        return {"city": validation.place_name(text)}
    if step == "venue":
        return {"venue": validation.venue(text)}
    if step == "dates":
        first, last = validation.dates(text, today)
        return {"starts_on": first.isoformat(), "ends_on": last.isoformat()}
    if step == "timezone":
        return {"timezone": validation.timezone(text)}
    if step == "timetable":
        days = validation.timetable(text, regulation_of(data))
        return {"timetable_json": json.dumps([d.model_dump(mode="json") for d in days])}
    if step == "capacity":
        return {"capacity": validation.capacity(text)}
    if step == "deadline":
        moment = validation.moment(text, data["timezone"], clock.now(), _day_end(data, "starts_on"))
        return {"deadline": moment.isoformat()}
    if step == "checkin":
        moment = validation.moment(text, data["timezone"], clock.now(), _day_end(data, "ends_on"))
        return {"checkin_cutoff": moment.isoformat()}
    if step == "fee":
        return {"fee": str(validation.fee(text))}
    if step == "quota":
        return {"quota": validation.club_quota(text)}
    if step == "channel":
        channel_id, name = await _checked_channel(bot, validation.channel(text))
        return {"channel_id": channel_id, "channel_name": name}
    raise Invalid("wizard-use-buttons")


def _day_end(data: dict[str, Any], which: str) -> datetime:
    """The last minute of the tournament's first or last day ("starts_on" or "ends_on")."""
    end = datetime.combine(date.fromisoformat(data[which]), datetime.max.time())
    return end.replace(tzinfo=ZoneInfo(data["timezone"]))


async def _checked_channel(bot: Bot, reference: str) -> tuple[int, str]:
    """The channel's id and how to show it (@username, else its title), if the bot is its
    admin with the right to post."""
    try:
        chat = await bot.get_chat(reference)
        member = await bot.get_chat_member(chat.id, bot.id)
    except TelegramAPIError:
        raise Invalid("channel-not-found", channel=reference) from None
    if member.status != "administrator":
        raise Invalid("channel-not-admin", channel=reference)
    if chat.type == "channel" and not getattr(member, "can_post_messages", False):
        raise Invalid("channel-cannot-post", channel=reference)
    return chat.id, f"@{chat.username}" if chat.username else (chat.title or str(chat.id))
