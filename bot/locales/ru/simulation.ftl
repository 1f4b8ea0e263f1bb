# Отчёт офлайн-симуляции (harness/simulation): терминал и report.html.

sim-started = { $regulation }: { $players } { $players ->
        [one] игрок
        [few] игрока
       *[many] игроков
    }, ключ (seed) { $seed }, скорость ×{ $speed }. Фальшивый Telegram: { $telegram }; база: { $database }
sim-page-address = Страница турнира (обновляется сама): { $url }
sim-live-games = Игр, проведённых судьёй вживую в мини-приложении (через его API): { $live }; остальные внесены кнопками протокола.
sim-page-title = { $title }: симуляция турнира
sim-winner = Победитель:
sim-summary = { $players } { $players ->
        [one] игрок
        [few] игрока
       *[many] игроков
    } · { $games } { $games ->
        [one] игра
        [few] игры
       *[many] игр
    } · { $posts } { $posts ->
        [one] сообщение
        [few] сообщения
       *[many] сообщений
    } в канале, картинок: { $pictures } · время прогона: { $seconds } с · ошибок: { $errors }
sim-final-table = Итоговая таблица
sim-final-table-of = Итоговая таблица: { $title }
sim-channel-by-stage = Канал турнира по этапам
sim-channel-count = Канал турнира: { $posts } { $posts ->
        [one] сообщение
        [few] сообщения
       *[many] сообщений
    }
sim-registration = Регистрация
sim-pinned = [закреплено] { $text }
sim-picture = [картинка { $file }] { $text }
sim-figures = Показатели прогона
