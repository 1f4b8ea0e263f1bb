# Напоминания по расписанию турнира (domain/reminder_plan.py) и экран расписания (handlers/timetable.py).

reminder-round = Турнир «{ $tournament }»: тур { $game } в { $time }, стол { $table }, место { $seat }, судья { $judge }.
reminder-protocol-missing = Турнир «{ $tournament }»: протокол игры за столом { $table } в туре { $game } ещё не подтверждён. Заполните и подтвердите его.
reminder-protocols-missing-chief = Турнир «{ $tournament }», тур { $game }: не подтверждены протоколы столов { $tables }.
reminder-unpaid = Турнир «{ $tournament }»: ваш взнос ({ $fee }) ещё не отмечен. Регистрация закрывается { $deadline }.
reminder-team-incomplete = Турнир «{ $tournament }»: в команде «{ $team }» { $count } из { $size } { $size ->
        [one] игрока
        [few] игроков
       *[many] игроков
    }. Пригласите игроков до { $deadline }, когда закроется регистрация.
reminder-checkin-open = Турнир «{ $tournament }»: началась отметка о прибытии. Нажмите «Я на месте», когда придёте.
reminder-registration-closed = Турнир «{ $tournament }»: срок регистрации истёк, регистрация закрыта.

card-timetable = Расписание и напоминания
timetable-screen =
    <b>Расписание · { $tournament }</b> ({ $source ->
        [regulation] как в регламенте
       *[adjusted] изменено организатором
    }, время { $timezone }):
    <pre>{ $timetable }</pre>
    { $count ->
        [0] Напоминаний в очереди нет.
       *[other] Напоминаний в очереди: { $count }; ближайшее { $next }.
    }
timetable-ask =
    Нажмите событие, чтобы выбрать его время. Напоминания сдвинутся вместе с ним.
timetable-keep-regulation = Вернуть расписание регламента
timetable-saved = Расписание сохранено, напоминания пересчитаны.
timetable-pick-time = Время события «{ $event }»: выберите час, затем минуты.
timetable-event = день { $day } · { $time } · { $kind ->
        [registration] регистрация
        [opening] открытие турнира
        [start] начало игр
        [game] игра
        [lunch] обед
        [results] подведение итогов
       *[awards] награждение
    }{ $stage ->
        [none] {""}
       *[other] , { $stage }
    }
timetable-no-time = Без времени
timetable-back = « К расписанию
