# Рассадка и туры (handlers/rounds.py, domain/services/rounds/).

round-seat-player = Тур { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }: стол { $table }, место { $seat }. Судья стола: { $judge }.
round-sit-out-player = Тур { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }: в этом туре вы не играете.
round-judge-list = Вы судья стола { $table }, тур { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }:
    { $players }
round-judge-list-corrected = Исправление рассадки. Стол { $table }, тур { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }:
    { $players }
round-judge-released = Тур { $game }: вы больше не судья стола { $table }.
round-open-protocol = Открыть протокол
round-channel-post = <b>Рассадка · { $stage } · тур { $game }{ $time ->
        [none] {""}
       *[other] {" "}· { $time }
    }{ $parts ->
        [1] {""}
       *[other] {" "}· часть { $part } из { $parts }
    }</b>

    { $tables }
# Строка стола: место и игрок (канал, список судьи, экран организатора).
table-seat = { $seat }. { $name }
# Стол в любом списке (экран организатора, канал): заголовок с судьёй (без судьи — без него) и места.
table-listing = <b>Стол { $table }</b>
    { $players }
table-listing-judged = <b>Стол { $table }</b> · судья { $judge }
    { $players }
round-channel-sit-outs = Не играют: { $players }
round-channel-correction = <b>Исправление рассадки, тур { $game }</b>
    { $changes }
round-channel-moved = { $name }: { $table }.{ $seat }
round-channel-moved-out = { $name }: —
round-correction-player = Исправление рассадки, тур { $game }: теперь вы за столом { $table }, место { $seat }.
round-correction-sit-out = Исправление рассадки, тур { $game }: в этом туре вы не играете.

# Отказы.
stage-not-started = Этап ещё не начат: начните его в карточке турнира.
stage-not-seated = Рассадка этапа ещё не составлена.
stage-cut-needs-lot = Проход в следующий этап не решён: { $places } { $places ->
        [one] место делят
        [few] места делят
       *[many] мест делят
    } игроки с равными показателями — нужен жребий: главный судья бросает его командой /lot.
stage-too-few-players = Игроков { $count }: на { $tables } { $tables ->
        [one] стол
        [few] стола
       *[many] столов
    } нужно по 10 игроков.
stage-seating-impossible = Рассадку составить нельзя: { $reason }
stage-all-published = Все туры этапа уже опубликованы.
stage-changed-meanwhile = Рассадку изменили, пока она составлялась: повторите.
round-unknown = Тура { $round } нет: в этапе { $rounds } { $rounds ->
        [one] тур
        [few] тура
       *[many] туров
    }.
round-edit-no-seat = Места { $table }.{ $seat } нет.
round-edit-same-player = Это один и тот же игрок.
round-edit-not-in-round = Игрок { $player } не играет в этом этапе.
round-edit-both-sit-out = Оба игрока пропускают этот тур: менять нечего.
round-edit-teammates = Так за столом { $table } окажутся игроки одной команды: { $first } и { $second }.
round-edit-started = За столом { $table } протокол уже начат: рассадку тура менять нельзя.
round-judge-busy = { $judge } уже судит другой стол этого тура.
round-already-published = Тур { $round } уже опубликован.
round-player-gone = Тур { $round } нельзя опубликовать: в нём сидят выбывшие без замены ({ $players }). Сначала пересадите неопубликованные туры.
stage-players-unchanged = Состав игроков не менялся: пересаживать некого.

# Экраны организатора.
rounds-usage = Команды: /rounds [номер турнира]; /swap [турнир] &lt;тур&gt; &lt;игрок&gt; &lt;игрок&gt;; /move [турнир] &lt;тур&gt; &lt;игрок&gt; &lt;стол.место&gt;. Игрок — игровой ник или «стол.место». Номер турнира не нужен: если у вас идёт несколько турниров, бот спросит, в каком.
rounds-no-running = У вас нет идущих турниров: начните этап в карточке турнира (/tournaments).
rounds-choose-tournament = Туры какого турнира показать?
rounds-unknown-player = Игрока «{ $player }» нет в этом турнире.
rounds-not-seated = Рассадка текущего этапа ещё не составлена.
rounds-seat-button = Составить рассадку
rounds-title = <b>{ $title }: этап { $stage }</b>
    Туров: { $rounds }, столов в туре: { $tables }. Ключ рассадки (seed): { $seed }
rounds-quality-meetings = Повторные встречи: максимум { $max_meet } (возможно не меньше { $max_meet_bound }), сумма повторов { $s2 } (граница { $s2_bound })
rounds-quality-no-repeats = Повторных встреч нет
rounds-quality-seats = Места: у { $repeated } { $repeated ->
        [one] игрока
        [few] игроков
       *[many] игроков
    } повторяется номер места, у { $unbalanced } — места неравномерно по столу
rounds-quality-games = Игр у игрока: от { $low } до { $high }
rounds-quality-teammates = Игроки одной команды за одним столом: { $together }
rounds-quality-worst-pair = Чаще всех встречаются: { $first } и { $second } — игр вместе: { $games }
rounds-quality-most-repeats = Больше всех повторных встреч: { $player } ({ $repeats })
rounds-gone = ⚠ После рассадки выбыли без замены: { $players }. Туры, где они сидят, нельзя опубликовать, пока их не пересадить; опубликованные туры не меняются.
rounds-reseat-button = Пересадить без выбывших (меньше всего перемен)
rounds-changed-seats = Пересадка сделана: в неопубликованных турах изменилось мест — { $changed }.
rounds-round-line = Тур { $round }: { $published ->
        [yes] опубликован
       *[no] не опубликован
    }{ $missing ->
        [0] {""}
       *[other] , без судьи столов: { $missing }
    }
rounds-edit-help = Поменять местами: /swap { $tournament } &lt;тур&gt; &lt;игрок&gt; &lt;игрок&gt;. Пересадить: /move { $tournament } &lt;тур&gt; &lt;игрок&gt; &lt;стол.место&gt;. Или кнопкой «Поменять местами / пересадить» в туре.
rounds-round-button = Тур { $round }
rounds-publish-button = Опубликовать тур { $round }
rounds-regenerate-button = Пересоставить неопубликованные туры
rounds-back-button = ← К этапу
rounds-round-title = <b>Тур { $round }</b> ({ $published ->
        [yes] опубликован
       *[no] не опубликован
    })
rounds-sit-outs = Не играют: { $players }
rounds-judge-button = Стол { $table }: { $judge } ▸
rounds-published = Тур { $round } опубликован: игроки, судьи и канал получат рассадку.
rounds-round-page = Страница { $page } из { $pages }: { $what } (всего столов: { $tables })
rounds-page-tables = столы { $first }–{ $last }
rounds-page-table = стол { $table }
rounds-page-sit-outs = кто не играет
rounds-page-back = ◀ { $what }
rounds-page-forward = { $what } ▶

## Seating for the whole day: tables and judges, schedules, sheets (issue 16)
seating-quality-most-at-table = Больше всех игр за одним столом: { $player } ({ $games }, меньше { $bound } не бывает)
seating-quality-most-with-judge = Больше всех игр у одного судьи: { $player } ({ $games }, меньше { $bound } не бывает)
seating-sheet-round = Тур
seating-sheet-table = Стол
seating-sheet-seat = Место
seating-sheet-player = Игрок
seating-sheet-club = Клуб
seating-sheet-judge = Судья
seating-sheet-role = Роль
seating-sheet-fouls = Фолы
seating-sheet-best-move = Лучший ход
seating-sheet-extra = Доп. баллы
seating-sheet-round-heading = Тур { $round }
seating-sheet-table-heading = Стол { $table }
seating-sheet-judge-heading = Судья: { $judge }
seating-sheet-winner = Победа:
seating-sheet-red = красные
seating-sheet-black = чёрные
seating-sheet-signature = Подпись судьи: ____________________
seating-sheet-poster = Рассадка: { $title } — { $stage }
seating-sheet-sit-outs = Не играют
seating-sheet-protocol = Протокол игры
seating-sheet-stage = { $stage ->
    [qualifying] отборочный тур
    [semifinal] полуфинал
    [final] финал
   *[other] { $stage }
}
seating-sheet-generated-title = Игроков: { $players }, столов: { $tables }
seating-sheet-generated-stage = туров: { $rounds }
seating-sheet-date = Дата: ____________
seating-sheet-points = Баллы
seating-sheet-day = День { $day }
seating-sheet-nominated = Выставлены
seating-sheet-votes = Голоса
seating-sheet-shot = Ночь: отстрел
seating-sheet-don-check = Проверка дона
seating-sheet-sheriff-check = Проверка шерифа
seating-sheet-best-move-line = Лучший ход: первый убитый № ______ называет № ______ № ______ № ______
seating-sheet-roles-hint = Роль: Ш — шериф, М — мафия, Д — дон; мирному ничего не пишут. Фол — отметка в клетке.
seating-pdf-button = 🖨 Листы (PDF)
seating-csv-button = 📄 Рассадка (CSV)
seating-schedules-button = 📬 Разослать расписание игрокам
seating-schedules-sent = Расписание этапа отправлено игрокам: { $players }
seating-schedule = 🗓 Ваше расписание: { $title }, этап { $stage }
    Тур · время · стол/место · судья
    { $games }
seating-schedule-corrected = ✏️ Расписание изменилось: { $title }, этап { $stage }
    Тур · время · стол/место · судья
    { $games }
# Строка расписания: тур · время · стол/место · судья, или «не играет».
seating-schedule-game = { $game } · { $time } · { $table }/{ $seat } · { $judge }
seating-schedule-out = { $game } · { $time } · —

## Замены в туре кнопками и выбор турнира для /swap и /move (issue 17)
rounds-edit-button = 🔁 Поменять местами / пересадить
rounds-edit-pick-table = <b>Тур { $round }</b>: { $picked ->
        [yes] куда пересадить игрока { $player }? Выберите стол (или тех, кто не играет).
       *[no] кого пересадить? Выберите стол (или тех, кто не играет).
    }
rounds-edit-pick-seat = <b>Тур { $round }</b>, { $table ->
        [0] не играют
       *[other] стол { $table }
    }: { $picked ->
        [yes] куда сядет { $player }? Кто там сидит, займёт его место.
       *[no] кого пересадить?
    }
rounds-edit-table-button = Стол { $table }
rounds-edit-sit-outs-button = Не играют
rounds-edit-back-button = ← Назад
rounds-edit-done = Рассадка тура изменена.
rounds-choose-edit = В каком турнире изменить рассадку?
# A game's stream view (handlers/streams.py): a link for OBS or vMix, the roles shown.
rounds-stream-button = 📺 Трансляция { $table }
stream-heading = 📺 <b>Трансляция</b>: { $tournament }, тур { $round }, стол { $table }
stream-closed = Ссылки для трансляции нет. Откройте её, чтобы показать игру в OBS или vMix: зрители трансляции увидят роли с задержкой, которую вы выберете (по умолчанию минута).
stream-address = Ссылка для OBS или vMix (источник «Браузер», 1920×1080, прозрачный фон):
    { $address }
stream-no-base-url = Ссылку не собрать: не задан WEB_BASE_URL бота.
stream-open = Роли видны зрителям трансляции, задержка { $seconds } с. Не публикуйте ссылку: по ней видны роли. Новая ссылка закрывает старую.
stream-open-button = Открыть ссылку для трансляции
stream-new-button = Новая ссылка (старая закроется)
stream-delay-button = { $seconds } с
stream-revoke-button = Закрыть ссылку
stream-back-button = ← К туру { $round }
stream-opened = Ссылка для трансляции открыта.
stream-revoked = Ссылка закрыта: трансляция больше не открывается.
stream-delay-set = Задержка трансляции: { $seconds } с.
stream-bad-delay = Задержка — от 0 до { $max } { $max ->
        [one] секунды
        [few] секунд
        [many] секунд
       *[other] секунды
    }.
stream-public-page = Страница игры для зрителей (роли скрыты до конца игры): { $address }
