# The tournament's public web page (bot/web/pages): plain text, the templates escape it.
web-lang-name = Русский
web-nav-standings = Таблица
web-nav-rounds = Рассадка
web-nav-games = Игры
web-nav-hall = Экран зала
web-standings-heading = Турнирная таблица
web-stages = Этапы
web-results = Итоги турнира
web-stage-games = { $games ->
    [one] { $games } игра на игрока
    [few] { $games } игры на игрока
   *[many] { $games } игр на игрока
}
web-stage-current = идёт сейчас
web-played-games = Сыграно игр: { $games }
web-live = Обновляется само
web-live-lost = Связь прервалась: страница обновляется раз в 30 секунд
web-updated = Обновлено
web-no-rounds = Рассадка ещё не опубликована.
web-no-games = Подтверждённых игр пока нет.
web-round = { $stage } · тур { $round }
web-table = Стол { $table }
web-judge = Судья: { $judge }
web-sit-outs = Не играют в этом туре: { $players }
web-game = Тур { $round } · стол { $table }
web-game-confirmed = протокол подтверждён
web-winner = { $side ->
    [red] Победа красных
   *[black] Победа чёрных
}
web-first-killed = Первый убитый: место { $seat }
web-best-move = Лучший ход: { $seats }
web-fouls = Фолы
web-fouls-abbr = Ф
web-removed = { $reason ->
    [fouls] удалён за четвёртый фол
   *[disqualified] дисквалифицирован
}
web-provisional-game = * — результат предварительный
web-player-heading = Игрок
web-player-seats = Рассадка
web-player-games = Игры
web-player-team = Команда: { $team }
web-not-found-title = Страница не найдена
web-not-found-text = Такого турнира или игрока нет, или организатор закрыл страницу.
web-back = К турниру
web-qr-caption = Таблица на телефоне
web-hall-heading = { $tournament } — турнирная таблица
web-footer = Страница турнира обновляется сама, когда судьи подтверждают протоколы.
web-og-description = Турнирная таблица, рассадка и игры: обновляется, когда судьи подтверждают протоколы.
web-hall-seating = Рассадка: { $round }
# The live game's page and the stream's overlay (bot/web/pages/games.py).
web-live-watch = Смотреть игру
web-live-now = идёт игра
web-live-title = { $round } · стол { $table } — игра
web-live-stage = { $stage ->
    [not_started] Игра ещё не началась
    [introduction] Ночь знакомства
    [speeches] День { $day }: речи
    [voting] День { $day }: голосование
    [split_speeches] День { $day }: попил, речи кандидатов
    [last_words] День { $day }: последнее слово
    [night] Ночь { $night }
    [best_move] Утро: лучший ход
    [morning] Утро: последнее слово
    [ending] Игра окончена: судья подводит итог
    [playing] Идёт игра
   *[finished] Игра окончена
}
web-live-speaker = Говорит игрок { $seat }
web-live-timer = Время
web-live-seat = Место
web-live-player = Игрок
web-live-role = Роль
web-live-out = { $exit ->
    [voted] заголосован
    [killed] убит
    [fouls] удалён (4 фола)
   *[disqualified] дисквалифицирован
}
web-live-speaking = говорит
web-live-candidate = на голосовании
web-live-nominations = Выставлены: { $nominations }
web-live-nomination = { $by } → { $target }
web-live-no-nominations = Пока никого не выставили.
web-live-vote = Голосование: { $votes }
web-live-vote-all = За то, чтобы все покинули стол: { $votes }
web-live-nights = Ночи
web-live-night = Ночь { $night }: { $shot ->
    [0] промах
   *[other] убит игрок { $shot }
}
web-live-checks = Проверки
web-live-check = Ночь { $night }: { $by ->
    [don] дон
   *[sheriff] шериф
} проверил игрока { $seat } — { $found ->
    [yes] { $by ->
        [don] шериф
       *[sheriff] чёрный
    }
    [no] { $by ->
        [don] не шериф
       *[sheriff] красный
    }
   *[unknown] ?
}
web-live-roles-secret = Роли откроются, когда игра закончится.
web-live-in-play = За столом: { $players }
web-live-not-live = Судья вёл эту игру не в приложении: её итог — на странице игр.
web-live-footer = Страница игры обновляется сама после каждого действия судьи.
web-stream-title = Трансляция: стол { $table }
web-stream-delay = Задержка { $seconds } с
