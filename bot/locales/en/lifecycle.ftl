# Tournament lifecycle screens: creation, the card, registration, teams, check-in.

yes = yes
no = no
refused-forbidden = You are not allowed to do this.
refused-not-found = This is no longer available: the tournament, team, player or link was not found.
back-to-card = « Back to the tournament card
back-to-list = « Back to the list

## Input checks
invalid-nickname-empty = A game nickname cannot be empty or hold control characters.
invalid-nickname-length = A game nickname has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-name-empty = Please type a name; it cannot be empty.
invalid-name-length = A name has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-title-empty = Please type the tournament's name.
invalid-title-length = A tournament name has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-venue-empty = Please type the venue.
invalid-venue-length = A venue has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-team-name-empty = Please type the team's name.
invalid-team-name-length = A team name has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-reason-empty = Please type the reason.
invalid-reason-length = A reason has { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    }, yours has { $length }.
invalid-number = A whole number from { $min } to { $max }, please.
invalid-fee = An entry fee is a number of at least 0, e.g. 500 or 500.50.
invalid-timezone = Unknown time zone. Example: Asia/Omsk or Europe/Moscow.
invalid-date = Write a date as DD.MM.YYYY, e.g. 20.12.2026.
invalid-date-past = That date has passed.
invalid-date-range = The last day is not before the first and at most 14 days later.
invalid-moment = Write a date and time as DD.MM.YYYY HH:MM, e.g. 19.12.2026 18:00.
invalid-moment-range = That moment must be in the future and no later than the tournament day.
invalid-channel = A channel is given as @channel_name or as its number -100…
invalid-timetable-line = Line { $line } is not understood. The buttons under the timetable are easier; as text, an event a line, "day time event [stage]", e.g. "1 12:30 game qualifying" ("-" for no time).
invalid-timetable = The timetable does not fit the regulation: { $problems }
channel-not-found = Channel { $channel } not found. Check the name and add the bot to the channel.
channel-not-admin = The bot is not an admin of { $channel }. Make it an admin and send the channel again.
channel-cannot-post = The bot may not post in { $channel }. Allow posting in its admin rights and send the channel again.

## Creating a tournament
wizard-ask-regulation = <b>New tournament.</b> Choose a regulation or send a regulation file (JSON). /cancel to stop.
wizard-regulation-file-too-big = Send a regulation file of at most 256 KB.
wizard-regulation-invalid =
    The regulation file has errors; fix them and send it again:
    { $problems }
wizard-ask-title = The tournament's name?
wizard-ask-city = City?
wizard-ask-venue = Venue (club, address)?
wizard-ask-dates = Dates: DD.MM.YYYY or DD.MM.YYYY-DD.MM.YYYY.
wizard-ask-timezone = The tournament's time zone? Pick a city or send a zone such as Asia/Omsk.
timezone-name = { $zone ->
        [kaliningrad] Kaliningrad (MSK−1)
        [moscow] Moscow (MSK)
        [samara] Samara (MSK+1)
        [yekaterinburg] Yekaterinburg (MSK+2)
        [omsk] Omsk (MSK+3)
        [novosibirsk] Novosibirsk (MSK+4)
        [krasnoyarsk] Krasnoyarsk (MSK+4)
        [irkutsk] Irkutsk (MSK+5)
        [yakutsk] Yakutsk (MSK+6)
       *[vladivostok] Vladivostok (MSK+7)
    }
wizard-ask-timetable =
    The tournament's timetable (from the regulation):
    <pre>{ $timetable }</pre>
    Press an event to change its time or remove it; "Add an event" adds one by its day, kind, stage and time. When all is right, press "Done".
wizard-timetable-games = Stage "{ $stage }": the regulation plays { $games } { $games ->
        [one] game
       *[other] games
    } per player, the timetable plans { $planned }. Add or remove games of this stage.
wizard-timetable-add = ➕ Add an event
wizard-timetable-done = ✅ Done
wizard-timetable-delete = Remove the event
wizard-timetable-day = Day { $day }
wizard-timetable-event = Event: { $event }. Pick its new time (the hour, then the minutes) or remove it.
wizard-timetable-pick-day = A new event: on which day?
wizard-timetable-pick-kind = A new event on day { $day }: what is it?
wizard-timetable-pick-stage = Games of which stage?
wizard-timetable-pick-time = { $kind ->
        [registration] Registration
        [opening] Opening
        [start] Start of the games
        [game] A game
        [lunch] Lunch
        [results] Results
       *[awards] Awards
    }: at what time? The hour, then the minutes.
wizard-timetable-kind = { $kind ->
        [registration] registration
        [opening] opening
        [start] start of the games
        [game] game
        [lunch] lunch
        [results] results
       *[awards] awards
    }
wizard-ask-capacity = How many players does the tournament take (at least 10)?
wizard-ask-deadline = Until when is registration open? DD.MM.YYYY HH:MM in the tournament's time.
wizard-ask-checkin = Until when may players check in on the day? DD.MM.YYYY HH:MM in the tournament's time. After it the check-in button is refused.
wizard-ask-fee = Entry fee per player?
wizard-ask-quota = Quota: how many players may one club register?
wizard-ask-channel = The tournament's channel (@name or -100…)? The bot must be its admin allowed to post.
wizard-keep-timezone = Keep { $timezone }
wizard-keep-timetable = Keep the regulation's timetable
wizard-keep-fee = As in the regulation: { $fee }
wizard-skip-deadline = No deadline (I will close it)
wizard-skip-checkin = No cut-off (I mark no-shows myself)
wizard-skip-quota = No quota
wizard-skip-channel = No channel
wizard-use-buttons = Answer with a button under the message, or /cancel.
wizard-summary = <b>Check the tournament:</b>
wizard-create = Create the tournament
wizard-cancel = Cancel
wizard-cancelled = Tournament creation cancelled.
wizard-switch-language = Channel in { $language }

## The tournament card
tournament-settings =
    <b>{ $title }</b>
    Regulation: { $regulation }
    City: { $city }; venue: { $venue }
    Dates: { $dates } ({ $timezone })
    Places: { $capacity }; registration until: { $deadline }; check-in until: { $checkin }
    Entry fee: { $fee }; club quota: { $quota }; channel: { $channel }; channel's language: { $language }
tournament-card =
    { $settings }

    Tournament No. { $number }. State: <b>{ $state }</b>
    Players: { $registered }, waiting list: { $waiting }, paid: { $paid }, checked in: { $checked_in }{ $teams }
    Registration link: { $link }
state-draft = draft
state-registration_open = registration open
state-registration_closed = registration closed
state-running = { $stage ->
        [0] games under way
       *[other] stage { $stage } running ({ $name })
    }
state-finished = finished
move-open_registration = Open registration
move-close_registration = Close registration
move-reopen_registration = Reopen registration
move-start_stage = Start the next stage
move-finish = Finish the tournament
move-not-now = Not possible now ({ $state }).
move-settings-missing = Fill in first: { $settings }.
move-too-few-players = Players: { $count }, needed: { $needed } for { $tables } { $tables ->
        [one] table
       *[other] tables
    } of 10 players.
move-incomplete-teams = Incomplete teams (a team has { $size } { $size ->
        [one] player
       *[other] players
    }): { $teams }.
card-players = Players
card-teams = Teams
card-teams-line = Teams: { $teams }, complete: { $complete_teams }
card-checkin = Check-in
card-checkin-call = Call players to check in
card-remind-teams = Remind incomplete teams
card-invite-chief = Invite the chief judge
card-invite-judge = Invite a table judge
card-export-csv = Participants (CSV)
card-export-file = Tournament file
card-rounds = Rounds: seating, judges, publishing
card-refresh = Refresh
tournaments-list = Your tournaments:
tournaments-none = You have no tournaments yet. /new to create one.
tournaments-none-player = You neither organize nor judge a tournament. Your games: /me, the table: /standings.
export-ready = { $title }: the export is ready.

## Lists
roster-title = <b>{ $title }</b> — { $view }: { $count } (page { $page } of { $pages })
roster-view-all = everyone
roster-view-waiting = waiting list
roster-view-unpaid = fee not paid
roster-view-unreachable = unreachable
roster-empty = Nobody.
teams-title = <b>Teams</b>: { $count } (page { $page } of { $pages })
status-registered = registered
status-waiting = on the waiting list
status-withdrawn = withdrawn
status-no_show = did not come
status-excluded = excluded
status-replaced = replaced
mark-paid = fee paid
mark-checked-in = present
mark-no-bot = never started the bot
mark-unreachable = blocked the bot
person-reason = Reason: { $reason }
person-paid = Mark the fee paid
person-unpaid = Take back the fee mark
person-no-show = Did not come
person-substitute = Substitute
person-exclude = Exclude from the tournament

## Player registration
registration-tournament = Tournament <b>{ $title }</b>
registration-none = You are not registered yet.
registration-mine =
    Game nickname: <b>{ $nickname }</b>
    Club: { $club }; city: { $city }
    Status: { $status }; team: { $team }; present: { $checked_in }
registration-ask-nickname = Your game nickname (2 to 32 characters)?
registration-ask-club = Your club?
registration-ask-city = Your city?
registration-summary =
    Please check:
    Game nickname: <b>{ $nickname }</b>
    Club: { $club }
    City: { $city }
registration-confirm = All correct
registration-redo = Change
registration-done = You are registered!
registration-waiting = No places left: you are on the waiting list. I will write when a place frees.
registration-edit = Edit my details
registration-withdraw = Withdraw
registration-withdraw-sure = Withdraw from the tournament?
registration-withdraw-yes = Yes, withdraw
registration-withdraw-no = No
registration-withdrawn = You have withdrawn from the tournament.
registration-frozen = The tournament has started: the registration cannot change.
registration-not-open = Registration for this tournament is not open.
registration-deadline-passed = The registration deadline has passed.
already-registered = You are already registered for this tournament.
nickname-taken = The game nickname "{ $nickname }" is already taken in this tournament.
club-quota-full = The quota of club "{ $club }" ({ $quota }) is full.

## Teams
team-create = Create a team
team-mine = My team
team-ask-name = The team's name?
team-view =
    Team <b>{ $name }</b> ({ $count } of { $size }) — { $complete }
    { $members }
team-complete = complete
team-incomplete = incomplete
team-invite = Link for your teammates: { $link }
team-remove = Remove { $nickname }
team-withdraw = Withdraw the team
team-withdraw-sure = Withdraw the team? All its players withdraw with it.
team-withdraw-yes = Yes, withdraw the team
team-withdrawn = The team has withdrawn.
team-reminded = Reminders sent: { $count }.
team-name-taken = There is already a team "{ $name }" in this tournament.
team-full = Team "{ $name }" already has { $size } { $size ->
        [one] player
       *[other] players
    }.
team-join-withdrawn = Team "{ $name }" has withdrawn.
team-already-member = You are already in a team.
team-not-member = This player is not in your team.
team-captain-stays = The captain cannot remove himself: withdraw the whole team.
team-change-after-start = The tournament has started: the team cannot change.
team-withdraw-after-start = By the regulation a team cannot withdraw once the tournament has started.
team-not-team-tournament = This is an individual tournament, without teams.

## Judges and organizers
staff-organizer-link = A one-time link that makes its opener an organizer: { $link }
staff-link-chief_judge = A one-time link for the chief judge: { $link }
staff-link-table_judge = A one-time link for a table judge: { $link }
staff-became-organizer = You are an organizer now: /new creates a tournament, /tournaments lists yours.
staff-became-chief = You are the chief judge of “{ $title }” now. /tournaments shows its card.
staff-became-judge = You are a table judge (host) of “{ $title }” now. /tournaments shows its card.

## Tournament day
checkin-button = I am here
checkin-done = Check-in confirmed. Have a good game!
checkin-closed = Check-in is not open now.
checkin-cutoff-passed = Check-in time is over: please see the organizer.
checkin-called = Players called to check in: { $count }.
checkin-screen =
    <b>Check-in</b>
    Present: { $present }, not checked in: { $missing }, places for substitutes: { $freed }
    Choose a player:
no-show-not-missing = { $nickname } has checked in or is not playing.
exclude-ask-reason = The reason for the exclusion (the panel of judges' decision)?
exclude-done = { $nickname } is excluded from the tournament.
exclude-not-playing = { $nickname } is not playing in the tournament now.
substitute-choose = Who replaces { $nickname }? The substitute plays the remaining games.
substitute-newcomer = A new player
substitute-ask-newcomer = A new player: "game nickname; club; city".
substitute-newcomer-format = Write three parts separated by ";": game nickname; club; city.
substitute-done = { $nickname } substitutes and plays the remaining games.
substitute-not-replaceable = { $nickname } is not awaiting a substitute: only a no-show or an excluded player can be replaced.
substitute-not-waiting = This player is no longer on the waiting list.
substitute-already-replaced = { $nickname } already has a substitute, { $substitute }: a second one cannot be assigned.
substitute-already-substitutes = { $nickname } already substitutes another player and cannot replace a second one.

## Messages from the bot
notice-promoted = A place has freed: you are registered for "{ $tournament }"!
notice-team-withdrawn = The captain withdrew team "{ $team }"; you are withdrawn too.
notice-team-joined = { $nickname } joined team "{ $team }".
notice-team-complete = { $nickname } joined team "{ $team }": the team is complete!
notice-team-removed = The captain removed you from team "{ $team }". You stay registered, without a team.
notice-team-incomplete = Team "{ $team }" is incomplete: { $count } of { $size }. Invite players before registration closes.
notice-excluded = The chief judge excluded you from "{ $tournament }". Reason: { $reason }
notice-substitute = You substitute for { $nickname } in "{ $tournament }" and play the remaining games.
notice-checkin = Tournament "{ $tournament }": please confirm you are here.
command-tournaments = My tournaments
command-new = New tournament

## A stage moves on only when it is finished (the card and a refused move)
card-stage-held = The next step (a new stage or finishing the tournament) is not available yet: { $reason }
move-stage-not-seated = stage { $stage } is not seated and played yet.
move-rounds-unpublished = { $count ->
        [1] round { $rounds } is
       *[other] rounds { $rounds } are
    } not published.
move-tables-unconfirmed = round { $round }: { $count ->
        [1] the protocol of table { $tables } is not confirmed
       *[other] the protocols of tables { $tables } are not confirmed
    }{ $others ->
        [0] {""}
       *[other] , and { $others } more in later rounds
    }.
move-protest-pending = round { $round }: a protest on { $count ->
        [1] the game of table { $tables } is pending
       *[other] the games of tables { $tables } are pending
    }{ $others ->
        [0] {""}
       *[other] , and { $others } more in later rounds
    }.
move-protest-window-open = the protest window of the stage's last games is open until { $until }; from then on the move is offered: the card updates itself.
move-cut-needs-lot = the cut line falls in a tie, the chief judge must draw a lot (/lot): { $places } { $places ->
        [one] place
       *[other] places
    } open.

## A no-show was replaced
notice-replaced = You were marked as a no-show in the tournament “{ $tournament }”, and { $nickname } plays your remaining games.
registration-replaced = Tournament “{ $tournament }”: you were marked as a no-show, and { $nickname } plays your remaining games. You cannot register anew; if this is a mistake, ask the organizer.
registration-excluded = Tournament “{ $tournament }”: the chief judge excluded you from the tournament. Reason: { $reason }

## To the captain: a member left the team
notice-team-left = { $nickname } left team "{ $team }": it has { $count } of { $size }. Invite a player by the team's link.

## The captain hears that a player of his team got a place from the waiting list
notice-team-member-promoted = { $nickname } of team "{ $team }" got a place from the waiting list: the team has { $count } of { $size }.
notice-team-complete-promoted = { $nickname } got a place from the waiting list: team "{ $team }" is complete!
notice-team-member-excluded = { $nickname } was excluded from the tournament: team "{ $team }" has { $count } of { $size } { $size ->
        [one] player
       *[other] players
    }. The organizer appoints a substitute.
card-web-public = Web page: make it public
card-web-unlisted = Web page: by link only
card-web-off = Web page: turn off
card-web-page = { $unlisted ->
    [true] The tournament's page (by this link only): { $url }
   *[false] The tournament's page for spectators: { $url }
}
card-web-page-draft = It opens with the registration.
card-web-page-off = The tournament's page for spectators is off.
card-web-page-no-address = { $unlisted ->
    [true] The tournament's page opens by link only; the link appears once the bot's admin sets the site's address.
   *[false] The tournament's page for spectators is open; its link appears once the bot's admin sets the site's address.
}
