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
