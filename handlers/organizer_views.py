"""The tournament card's and settings' views: the settings as text, the card's text and
keyboard (what the person may do from it), the web page's line, a refused move's reason.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from aiogram import Bot
from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import LOCALES, format_points
from domain.layout import argument, joined, lines
from domain.lifecycle import Refusal, stage_number
from domain.outgoing import ArgumentValue, Lines, Localized, Phrase
from domain.permissions import Action, StaffRole, allows
from domain.presets import PRESET_IDS
from domain.regulation import EntryFee, load_preset
from domain.services.catalog import Services
from domain.services.season_screens import CardSeason
from domain.services.tournaments import (
    TournamentCard,
)
from domain.tournament import Tournament, TournamentState, WebVisibility
from handlers.callbacks import (
    CardOpen,
    CheckinCall,
    CheckinScreen,
    ExportChoice,
    ExportKind,
    JudgeInvite,
    MoveChoice,
    PresetChoice,
    RemindTeams,
    RosterPage,
    RosterView,
    TeamPage,
    TimetableAction,
    TimetableButton,
    WebPageChoice,
    WizardDone,
    WizardKeep,
    WizardLanguage,
)
from handlers.common import deep_link
from handlers.keyboards import tournament_choice
from handlers.middlewares import Texts
from handlers.rounds_views import rounds_button
from handlers.season_admin_views import card_season_buttons, card_season_line
from handlers.start_views import LANGUAGE_NAMES
from handlers.timezone_views import add_zone_buttons, zone_name


def _settings(tournament: Tournament) -> Phrase:
    regulation = tournament.regulation
    deadline = tournament.registration_deadline
    cutoff = tournament.checkin_cutoff
    return Phrase.of(
        "tournament-settings",
        title=tournament.title,
        regulation=Localized(regulation.name.ru, regulation.name.en),
        city=tournament.city or "-",
        venue=tournament.venue or "-",
        dates=_dates(tournament),
        timezone=zone_name(tournament.timezone),
        capacity=tournament.capacity or "-",
        deadline=_moment(deadline, tournament.timezone) if deadline else "-",
        checkin=_moment(cutoff, tournament.timezone) if cutoff else "-",
        fee=str(tournament.entry_fee) if tournament.entry_fee is not None else "-",
        quota=tournament.club_quota or "-",
        channel=_channel(tournament),
        language=LANGUAGE_NAMES.get(tournament.locale, tournament.locale),
    )


def _channel(tournament: Tournament) -> str:
    if tournament.channel_id is None:
        return "-"
    return tournament.channel_name or str(tournament.channel_id)


def _dates(tournament: Tournament) -> str:
    if tournament.starts_on is None:
        return "-"
    first = tournament.starts_on.strftime("%d.%m.%Y")
    if tournament.ends_on and tournament.ends_on != tournament.starts_on:
        return f"{first}–{tournament.ends_on.strftime('%d.%m.%Y')}"
    return first


def _moment(moment: datetime, zone: str) -> str:
    return moment.astimezone(ZoneInfo(zone)).strftime("%d.%m.%Y %H:%M")


def card_keyboard(
    card: TournamentCard, texts: Texts, season: CardSeason | None = None
) -> InlineKeyboardMarkup:
    tournament_id = card.tournament.id
    team = card.tournament.is_team_tournament
    buttons: list[tuple[str, CallbackData]] = [
        (f"move-{move.value}", MoveChoice(tournament_id=tournament_id, move=move))
        for move in card.moves
    ]
    if allows(card.roles, Action.VIEW_PARTICIPANTS):
        buttons.append(
            ("card-players", RosterPage(tournament_id=tournament_id, view=RosterView.ALL, page=0))
        )
        if team:
            buttons.append(("card-teams", TeamPage(tournament_id=tournament_id, page=0)))
        buttons.append(("card-checkin", CheckinScreen(tournament_id=tournament_id)))
    if card.tournament.running_stage is not None and allows(card.roles, Action.MOVE_STATE):
        buttons.append(("card-rounds", rounds_button(tournament_id)))
    if allows(card.roles, Action.EDIT_SETTINGS):
        buttons.append(
            (
                "card-timetable",
                TimetableButton(tournament_id=tournament_id, action=TimetableAction.VIEW),
            )
        )
        buttons.append(_web_page_button(card.tournament))
        if season is not None:
            buttons += card_season_buttons(tournament_id, season.rated)
    if allows(card.roles, Action.INVITE_STAFF):
        buttons.append(("card-checkin-call", CheckinCall(tournament_id=tournament_id)))
        if team and card.tournament.state is TournamentState.REGISTRATION_OPEN:
            buttons.append(("card-remind-teams", RemindTeams(tournament_id=tournament_id)))
        buttons.append(
            (
                "card-invite-chief",
                JudgeInvite(tournament_id=tournament_id, role=StaffRole.CHIEF_JUDGE),
            )
        )
        buttons.append(
            (
                "card-invite-judge",
                JudgeInvite(tournament_id=tournament_id, role=StaffRole.TABLE_JUDGE),
            )
        )
    if allows(card.roles, Action.EXPORT):
        buttons.append(
            ("card-export-csv", ExportChoice(tournament_id=tournament_id, kind=ExportKind.CSV))
        )
        buttons.append(
            ("card-export-file", ExportChoice(tournament_id=tournament_id, kind=ExportKind.FILE))
        )
    buttons.append(("card-refresh", CardOpen(tournament_id=tournament_id)))
    keyboard = InlineKeyboardBuilder()
    for key, data in buttons:
        keyboard.button(text=texts(key), callback_data=data)
    keyboard.adjust(1)
    return keyboard.as_markup()


def _web_page_button(tournament: Tournament) -> tuple[str, CallbackData]:
    """One button steps the web page through public, unlisted and off."""
    following = WEB_NEXT[tournament.web_visibility]
    return f"card-web-{following.value}", WebPageChoice(tournament_id=tournament.id, to=following)


async def card_screen(
    card: TournamentCard,
    texts: Texts,
    bot: Bot,
    web_base_url: str | None,
    services: Services,
) -> tuple[Lines, InlineKeyboardMarkup]:
    """The card's text (with its season line: series, rated, category) and keyboard."""
    season = await services.season_screens.card_season(card.tournament.id)
    line = card_season_line(season.series_title, season.rated, season.category_stars)
    text = await card_text(card, bot, web_base_url)
    return lines([text, line]), card_keyboard(card, texts, season)


WEB_NEXT = {
    WebVisibility.PUBLIC: WebVisibility.UNLISTED,
    WebVisibility.UNLISTED: WebVisibility.OFF,
    WebVisibility.OFF: WebVisibility.PUBLIC,
}


def _web_page(tournament: Tournament, base_url: str | None) -> Phrase:
    """The card's line about the tournament's public web page: its address, or why none."""
    path = tournament.public_page_path
    if path is None:
        return Phrase.of("card-web-page-off")
    unlisted = str(tournament.web_visibility is WebVisibility.UNLISTED).lower()
    if base_url is None:
        return Phrase.of("card-web-page-no-address", unlisted=unlisted)
    line = Phrase.of("card-web-page", url=base_url + path, unlisted=unlisted)
    if tournament.state is TournamentState.DRAFT:
        return joined(line, Phrase.of("card-web-page-draft"), separator=" ")
    return line


def _state(tournament: Tournament) -> Phrase:
    """Where the tournament stands, a running one with its stage's number and name."""
    name: ArgumentValue = ""
    if tournament.current_stage is not None:
        stage = tournament.regulation.stage(tournament.current_stage).name
        name = Localized(stage.ru, stage.en)
    return Phrase.of(
        f"state-{tournament.state.value}", stage=stage_number(tournament) or 0, name=name
    )


def refusal_text(refused: Refusal) -> Phrase:
    """A refused move."""
    args = {k: argument(v) for k, v in refused.args.items()}
    if "state" in args:
        args["state"] = Phrase.of(f"state-{args['state']}", stage=0)
    return Phrase.of(refused.code, **args)


async def card_text(card: TournamentCard, bot: Bot, web_base_url: str | None = None) -> Lines:
    tournament = card.tournament
    # An individual cup's card has no teams to count.
    teams: ArgumentValue = ""
    if tournament.is_team_tournament:
        counted = Phrase.of("card-teams-line", teams=card.teams, complete_teams=card.complete_teams)
        teams = joined("\n", counted)
    shown: list[Phrase | str] = [
        Phrase.of(
            "tournament-card",
            number=tournament.id,
            settings=_settings(tournament),
            state=_state(tournament),
            registered=card.registered,
            waiting=card.waiting,
            paid=card.paid,
            checked_in=card.checked_in,
            teams=teams,
            link=await deep_link(bot, card.registration_payload),
        ),
        _web_page(tournament, web_base_url),
    ]
    if card.held is not None:
        shown += ["", Phrase.of("card-stage-held", reason=refusal_text(card.held))]
    return lines(shown)


def keep_keyboard(
    step: str, timezone: str, fee: EntryFee | None, texts: Texts
) -> InlineKeyboardMarkup:
    """The button that keeps a wizard step's default (none for a step without one); `fee` is
    the regulation's, read for the fee step only."""
    keyboard = InlineKeyboardBuilder()
    label = None
    if step == "timezone":
        add_zone_buttons(keyboard, timezone, texts)
    elif step == "timetable":
        label = texts("wizard-keep-timetable")
    elif step == "fee":
        label = texts("wizard-keep-fee", fee=format_points(fee.amount if fee else 0, texts.locale))
    elif step in ("deadline", "checkin", "quota", "channel"):
        label = texts(f"wizard-skip-{step}")
    if label is not None:
        keyboard.button(text=label, callback_data=WizardKeep(step=step))
    return keyboard.as_markup()


def presets_keyboard(texts: Texts) -> InlineKeyboardMarkup:
    """A button per preset regulation, named in the person's language."""
    keyboard = InlineKeyboardBuilder()
    for preset in PRESET_IDS:
        name = load_preset(preset).name
        keyboard.button(
            text=name.ru if texts.locale == "ru" else name.en,
            callback_data=PresetChoice(preset=preset),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def summary_text(draft: Tournament) -> Lines:
    return lines([Phrase.of("wizard-summary"), _settings(draft)], "\n\n")


def summary_keyboard(draft: Tournament, texts: Texts) -> InlineKeyboardMarkup:
    """Create, cancel, and post in the other language."""
    keyboard = InlineKeyboardBuilder()
    keyboard.button(text=texts("wizard-create"), callback_data=WizardDone(create=True))
    keyboard.button(text=texts("wizard-cancel"), callback_data=WizardDone(create=False))
    other = next(locale for locale in LOCALES if locale != draft.locale)
    keyboard.button(
        text=texts("wizard-switch-language", language=LANGUAGE_NAMES[other]),
        callback_data=WizardLanguage(locale=other),
    )
    keyboard.adjust(2, 1)
    return keyboard.as_markup()


def tournaments_keyboard(mine: list[Tournament], texts: Texts) -> InlineKeyboardMarkup:
    """/tournaments: a button per tournament with its state; its press opens the card."""
    return tournament_choice(
        mine[:30],
        lambda tournament: CardOpen(tournament_id=tournament.id),
        label=lambda tournament: f"{tournament.title} · {texts.plain(_state(tournament))}",
    )
