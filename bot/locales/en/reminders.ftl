# Reminders driven by the tournament's timetable (domain/reminder_plan.py) and the timetable screen (handlers/timetable.py).

reminder-round = Tournament "{ $tournament }": round { $game } at { $time }, table { $table }, seat { $seat }, judge { $judge }.
reminder-protocol-missing = Tournament "{ $tournament }": the protocol of table { $table } in round { $game } is not confirmed yet. Please fill it in and confirm it.
reminder-protocols-missing-chief = Tournament "{ $tournament }", round { $game }: protocols not confirmed yet at tables { $tables }.
reminder-unpaid = Tournament "{ $tournament }": your entry fee ({ $fee }) is not marked paid yet. Registration closes on { $deadline }.
reminder-team-incomplete = Tournament "{ $tournament }": team "{ $team }" has { $count } of { $size } { $size ->
        [one] player
       *[other] players
    }. Invite the rest before { $deadline }, when registration closes.
reminder-checkin-open = Tournament "{ $tournament }": check-in is open. Press "I am here" when you arrive.
reminder-registration-closed = Tournament "{ $tournament }": the registration deadline has come, registration is closed.

card-timetable = Timetable and reminders
timetable-screen =
    <b>Timetable · { $tournament }</b> ({ $source ->
        [regulation] as in the regulation
       *[adjusted] adjusted by the organizer
    }, { $timezone } time):
    <pre>{ $timetable }</pre>
    { $count ->
        [0] No reminders waiting.
       *[other] Reminders waiting: { $count }; the next at { $next }.
    }
timetable-ask =
    Tap an event to pick its time. The reminders move with it.
timetable-keep-regulation = Restore the regulation's timetable
timetable-saved = Timetable saved, reminders moved.
timetable-pick-time = The time of "{ $event }": pick the hour, then the minutes.
timetable-event = day { $day } · { $time } · { $kind ->
        [registration] registration
        [opening] opening
        [start] first game
        [game] game
        [lunch] lunch
        [results] results
       *[awards] awards
    }{ $stage ->
        [none] {""}
       *[other] , { $stage }
    }
timetable-no-time = No time
timetable-back = « Back to the timetable
