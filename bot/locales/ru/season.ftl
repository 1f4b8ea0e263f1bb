# Сезон: профиль игрока, рейтинг, серии турниров, объединение аккаунтов, клубы (handlers/season*.py, веб-страницы серий и игроков).

command-profile = Профиль игрока
command-rating = Рейтинг серии
command-series = Серии турниров
command-merge = Объединить аккаунты
command-joinclubs = Объединить написания клуба
help-season =
    <b>Сезон</b>
    /profile — ваш профиль: турниры, роли, рейтинг и его история; <code>/profile ник</code> — профиль другого игрока.
    /rating — рейтинг серии турниров (игроки и клубы), ваша строка отмечена.
help-season-organizer =
    <b>Сезон (организатору)</b>
    В карточке турнира: серия, к которой он относится, и рейтинговый ли он.
    /merge ник — объединить два аккаунта одного игрока; /joinclubs Клуб = другое написание — объединить написания клуба.
help-season-admin =
    <b>Сезон (администратору)</b>
    /series — серии турниров; <code>/series Название</code> — создать серию.

rating-stars-line = Рейтинг: <b>{ $rating }</b> { $stars }
rating-none-line = Рейтинг: пока нет (ещё ни одной рейтинговой игры)

profile-none = Профиля пока нет: вы ещё не играли ни в одном турнире.
profile-search-hint = Профиль другого игрока: <code>/profile ник</code>, например <code>/profile Ворон</code>.
profile-found = Игроки по запросу «{ $query }»:
profile-not-found = Игроков с ником «{ $query }» не нашлось.
profile-gone = Этого профиля больше нет: аккаунт объединён с другим.
profile-hidden = Игрок скрыл свой профиль.
profile-hidden-own = Ваш профиль скрыт: другие видят только ваш ник.
profile-rating = Рейтинг: <b>{ $overall }</b> · за красных { $red } · за чёрных { $black }
profile-rank = Место в общем рейтинге: { $rank }
profile-no-rating = Рейтинга пока нет: ни одной игры в рейтинговых турнирах.
profile-games = Игр: { $games } · баллов за игру: { $per_game }
profile-figures = Лучший ход: { $best_moves } · убит в первую ночь: { $first_night } · фолы: { $fouls } · дисквалификации: { $disqualifications }
profile-roles-title = <b>Роли</b>
profile-role-line = { $role }: игр { $games }, побед { $wins } ({ $rate }%)
profile-tournaments-title = <b>Турниры</b>
profile-tournament-line = { $title }{ $date } — место { $place }, баллы { $points }, игр { $games }
profile-more-tournaments = …и ещё турниров: { $count } (все — на странице игрока)
profile-button-picture = История рейтинга картинкой
profile-button-page = Страница игрока на сайте
profile-button-hide = Скрыть мой профиль
profile-button-show = Открыть мой профиль
profile-hidden-now = Профиль скрыт: в таблицах виден только ваш ник, остальное — только вам.
profile-shown-now = Профиль открыт всем.
profile-history-title = Рейтинг: { $nickname }
profile-history-axis = игры
profile-history-none = Истории рейтинга пока нет: ни одной рейтинговой игры.

rating-no-series = Серий турниров пока нет: рейтинг серии появится, когда администратор создаст серию.
rating-choose = Какой серии рейтинг показать?
rating-heading = <b>Рейтинг серии «{ $title }»</b>
rating-empty = В серии ещё нет игроков с рейтинговыми играми.
rating-mine = Ваше место: { $place } · рейтинг { $rating } · баллы серии { $points }
rating-not-in = Вас в этой серии пока нет.
rating-more = …и ещё игроков: { $count }
rating-abbr-place = М
rating-abbr-player = Игрок
rating-abbr-rating = Рейт
rating-abbr-points = Баллы
rating-abbr-games = И
rating-legend = Рейт — рейтинг · Баллы — баллы серии за места в турнирах · И — игры · ▶ — вы
rating-button-picture = Картинкой
rating-button-clubs = Клубы
rating-button-page = Страница серии на сайте
rating-clubs-heading = <b>Клубы серии «{ $title }»</b>
rating-clubs-empty = Клубов в серии пока нет.
rating-club-line = { $place }. { $club } — { $rating } (игроков: { $members })
rating-gone = Этой серии больше нет.
rating-picture-title = Рейтинг: { $title }

card-season = Серия: { $series } · { $rated ->
        [true] рейтинговый
       *[false] не рейтинговый
    } · категория: { $category }
card-season-no-series = нет
card-category-none = ещё нет
card-button-series = Серия турнира
card-button-rated-on = Сделать рейтинговым
card-button-rated-off = Сделать не рейтинговым
card-series-choose = К какой серии отнести турнир «{ $title }»?
card-series-none = Без серии
card-series-no-series = Серий пока нет: их создаёт администратор бота (/series).
card-series-attached = Турнир теперь в серии «{ $series }».
card-series-detached = Турнир больше не в серии.
card-rated-now-on = Турнир рейтинговый: его игры идут в рейтинг.
card-rated-now-off = Турнир не рейтинговый: его игры в рейтинг не идут.

series-none = Серий турниров пока нет. Создать: <code>/series Название</code>
series-list = <b>Серии турниров</b>
    Новая серия: <code>/series Название</code>
series-created = Серия «{ $title }» создана.
series-screen =
    <b>Серия «{ $title }»</b>
    Турниров: { $tournaments } · игроков в рейтинге: { $players }
series-button-points = Загрузить таблицу баллов (файл)
series-button-page = Страница серии на сайте
series-send-points = Пришлите таблицу баллов серии файлом JSON (образец — domain/presets/series_points/fiim.json). /cancel — отменить.
series-points-saved = Таблица баллов серии «{ $title }» сохранена.
series-points-not-file = Нужен файл JSON с таблицей баллов (документом). /cancel — отменить.
series-points-too-big = Файл слишком большой для таблицы баллов (больше { $limit } КБ).
series-points-not-text = Файл не читается как текст UTF-8: нужна таблица баллов в JSON.
series-title-too-long = Название серии — не длиннее { $limit } { $limit ->
        [one] знака
        [few] знаков
        [many] знаков
       *[other] знака
    }.
series-cancelled = Загрузка таблицы баллов отменена.

merge-usage = Объединить два аккаунта одного игрока: <code>/merge ник</code> — покажу игроков с этим ником, выберете оба аккаунта кнопками.
merge-not-found = Игроков с ником «{ $query }» не нашлось.
merge-choose-keep = Объединение аккаунтов. Какой аккаунт <b>остаётся</b>?
merge-choose-merge = Остаётся: <b>{ $keep }</b>. Какой аккаунт присоединить к нему?
merge-preview =
    <b>Объединение аккаунтов</b>

    <b>Остаётся</b>
    { $keep }

    <b>Присоединяется</b>
    { $merge }
merge-overlap = Объединить нельзя: оба аккаунта играли в одном турнире ({ $titles }).
merge-confirm = ✅ Объединить
merge-cancel = Отмена
merge-done = Готово: аккаунт «{ $merge }» присоединён к «{ $keep }», рейтинги пересчитаны.
merge-cancelled = Объединение отменено.
merge-stale = Этот выбор устарел: начните снова с <code>/merge ник</code>.
merge-side = { $nickname } ({ $club }) · турниров: { $tournaments } · игр: { $games } · рейтинг: { $rating }

clubs-usage = Объединить написания одного клуба: <code>/joinclubs Клуб = другое написание</code>.
clubs-joined = Готово: «{ $alias }» теперь считается клубом «{ $club }».

web-season-series = Серия «{ $title }»
web-season-calendar = Календарь
web-season-upcoming = Скоро
web-season-running = Идут
web-season-finished = Завершены
web-season-register = Регистрация
web-season-no-events = Турниров нет.
web-season-players = Рейтинг игроков
web-season-clubs = Рейтинг клубов
web-season-no-players = Рейтинговых игр в серии ещё не было.
web-season-no-clubs = Клубов пока нет.
web-season-col-place = М
web-season-col-player = Игрок
web-season-col-club = Клуб
web-season-col-rating = Рейтинг
web-season-col-red = Красные
web-season-col-black = Чёрные
web-season-col-games = Игры
web-season-col-tournaments = Турниры
web-season-col-points = Баллы серии
web-season-col-points-short = Баллы
web-season-col-members = Игроков
web-season-col-title = Турнир
web-season-col-date = Дата
web-season-col-role = Роль
web-season-col-wins = Победы
web-season-col-rate = % побед
web-season-player-rating = Рейтинг { $overall } · за красных { $red } · за чёрных { $black }
web-season-player-rank = Место в общем рейтинге: { $rank }
web-season-player-no-rating = Рейтинга пока нет.
web-season-player-hidden = Игрок скрыл свой профиль.
web-season-chart = История рейтинга
web-season-chart-desc = Рейтинг после каждой рейтинговой игры, от { $start } до { $last }.
web-season-chart-none = Рейтинговых игр ещё не было.
web-season-player-tournaments = Турниры
web-season-player-roles = Роли
web-season-player-figures = Игр: { $games } · баллов за игру: { $per_game } · лучший ход: { $best_moves } · убит в первую ночь: { $first_night } · фолы: { $fouls } · дисквалификации: { $disqualifications }
web-season-club = Клуб «{ $club }»
web-season-club-rating = Рейтинг клуба: { $rating }
web-season-club-aliases = Другие написания: { $aliases }
web-season-club-members = Игроки клуба
web-season-of-series = Серия: { $title }
web-season-stars = Категория: { $stars }
web-season-title = Сезон
