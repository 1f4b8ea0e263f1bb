# Refusals of the season's use cases (#28): merges, series, points tables, clubs.
season-merge-same = Это один и тот же игрок: объединять нечего.
season-merge-overlap = Объединить нельзя: оба аккаунта играли в одном турнире ({ $tournaments }). Ничего не изменено.
season-series-title = Название серии — от 1 до { $max } { $max ->
        [one] символа
        [few] символов
        [many] символов
       *[other] символа
    }.
season-points-table-invalid = Файл таблицы баллов серии не подходит: { $problems }. Таблица не изменена.
season-club-name = Название клуба — от 1 до { $max } { $max ->
        [one] символа
        [few] символов
        [many] символов
       *[other] символа
    }.
season-club-same = Это то же название клуба: объединять нечего.
season-import-repeated = Этот файл уже загружен (турнир { $tournament }). Ничего не изменено.
