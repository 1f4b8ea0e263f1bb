# Турнирная таблица (bot/rendering): в канале, в личном чате, картинкой и файлом CSV.

standings-heading = <b>Турнирная таблица: { $tournament }</b>
standings-stage = Этап: { $stage } · сыграно игр: { $games }
standings-no-games = Игр ещё не было.
standings-title-players = Игроки
standings-title-teams = Команды
standings-abbr-place = М
standings-abbr-players = Игрок
standings-abbr-teams = Команда
standings-abbr-points = Баллы
standings-abbr-games = И
standings-abbr-wins = П
standings-abbr-extra_points = Доп
standings-abbr-wins_as_don = ПД
standings-abbr-wins_as_sheriff = ПШ
standings-abbr-wins_as_mafia = ПМ
standings-abbr-wins_as_don_or_sheriff = ПДШ
standings-abbr-times_named_best = Луч
standings-abbr-first_night_deaths = ПУ
standings-abbr-best_move_points = ЛХ
standings-name-place = Место
standings-name-list = Таблица
standings-name-name = Ник или команда
standings-name-team = Команда
standings-name-stage = Этап
standings-name-points = Баллы
standings-name-games = игры
standings-name-wins = победы
standings-name-extra_points = дополнительные баллы
standings-name-wins_as_don = победы доном
standings-name-wins_as_sheriff = победы шерифом
standings-name-wins_as_mafia = победы мафией
standings-name-wins_as_don_or_sheriff = победы доном или шерифом
standings-name-times_named_best = признан лучшим
standings-name-first_night_deaths = убит в первую ночь
standings-name-best_move_points = баллы за лучший ход
standings-name-provisional = Предварительно
standings-name-lot = Жребий
standings-name-tied = Место делят
standings-legend-item = { $abbr } — { $name }
standings-cut-line = { $unit ->
        [teams] { $count ->
            [one] дальше проходит { $count } команда
            [few] дальше проходят { $count } команды
           *[many] дальше проходят { $count } команд
        }
       *[players] { $count ->
            [one] дальше проходит { $count } игрок
            [few] дальше проходят { $count } игрока
           *[many] дальше проходят { $count } игроков
        }
    }
standings-cut-needs-lot = Граница прохода приходится на равенство по всем показателям: жребий главного судьи (команда /lot) разыграет { $places } { $places ->
        [one] место
        [few] места
       *[many] мест
    }.
standings-mark-provisional = * — результат предварительный: открыто окно протеста или рассматривается протест (игр: { $games }).
standings-mark-lot = ~ — место определено жребием.
standings-mark-tied = = — место делят: равенство по всем показателям, жребий ещё не бросали.
standings-more = … и ещё { $count } — вся таблица: /standings
standings-closing-round = <b>{ $tournament }: тур { $round } завершён</b> ({ $stage })
standings-closing-stage = <b>{ $tournament }: этап «{ $stage }» завершён</b>
standings-results-heading = 🏆 <b>{ $tournament }: турнир завершён</b>
standings-results-winner = { $count ->
        [one] Победитель: <b>{ $names }</b>
        [few] Победители: <b>{ $names }</b>
        [many] Победители: <b>{ $names }</b>
       *[other] Победители: <b>{ $names }</b>
    }
standings-results-team-winner = { $count ->
        [one] Команда-победитель: <b>{ $names }</b>
        [few] Команды-победители: <b>{ $names }</b>
        [many] Команды-победители: <b>{ $names }</b>
       *[other] Команды-победители: <b>{ $names }</b>
    }
standings-results-table = <b>{ $tournament }: итоговая таблица</b>
standings-podium-players = Призёры
standings-podium-teams = Команды-призёры
standings-podium-individual = Личный зачёт
standings-podium-row = { $medal } { $name } — { $points }
# Номинации по ролям: лучший игрок роли по баллам, набранным в этой роли.
standings-awards = Номинации
standings-award-row = { $role ->
        [sheriff] Лучший шериф
        [don] Лучший дон
        [mafia] Лучшая мафия
       *[civilian] Лучший мирный
    }: { $names } — { $points } за { $games } { $games ->
        [one] игру
        [few] игры
       *[many] игр
    }
standings-yes = да

# /me: игры игрока и баллы по частям.
me-heading = <b>{ $nickname }</b> — { $tournament }
me-summary = Место: { $place } · баллы: { $points } · игр: { $games } · побед: { $wins }
me-no-games = Игр ещё не было.
me-role = { $role ->
        [civilian] мирный
        [sheriff] шериф
        [mafia] мафия
       *[don] дон
    }
me-won = +
me-lost = −
me-abbr-round = Тур
me-abbr-table = Ст
me-abbr-seat = М
me-abbr-role = Роль
me-abbr-result = ±
me-abbr-win = Поб
me-abbr-best_move = ЛХ
me-abbr-extra = Доп
me-abbr-penalty = Штр
me-abbr-total = Итого
me-name-table = стол
me-name-seat = место за столом
me-name-result = победа (+) или поражение (−)
me-name-win = баллы за победу
me-name-best_move = лучший ход
me-name-extra = дополнительные баллы
me-name-penalty = штраф (дисквалификация)
me-name-total = баллы за игру
me-provisional = * — результат предварительный: открыто окно протеста или рассматривается протест.
me-choose = Ваши игры в каком турнире показать?
me-not-playing = Вы не играете ни в одном турнире. Зарегистрируйтесь по ссылке организатора.
standings-none = Вы не участвуете ни в одном турнире: таблицу можно посмотреть в канале турнира.
standings-button-picture = Картинкой
standings-button-csv = Для Excel (CSV, «;»)
standings-gone = Этого турнира больше нет.
standings-choose = Таблицу какого турнира показать?
command-standings = Турнирная таблица
command-me = Мои игры и баллы

## Исключённый игрок в таблице
standings-name-excluded = Исключён
standings-mark-excluded = × — игрок исключён из турнира (решение судейской коллегии): очки его игр сохранены, в отбор он не проходит.

## /me: исключённый игрок и особое окончание игры
me-excluded = × Вы исключены из турнира (решение судейской коллегии): очки ваших игр сохранены, но в отбор вы не проходите.
me-game-end = Тур { $round }, стол { $table }: { game-end }
standings-web-link = Таблица, рассадка и игры на сайте: { $url }
