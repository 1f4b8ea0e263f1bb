# Экраны жизненного цикла турнира: создание, карточка, регистрация, команды, отметка о прибытии.

yes = да
no = нет
refused-forbidden = У вас нет прав на это действие.
refused-not-found = Это больше недоступно: турнир, команда, игрок или ссылка не найдены.
back-to-card = « К карточке турнира
back-to-list = « К списку

## Проверка ввода
invalid-nickname-empty = Игровой ник не может быть пустым или содержать служебные символы.
invalid-nickname-length = Игровой ник — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-name-empty = Напишите название — пустым оно быть не может.
invalid-name-length = Название — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-title-empty = Напишите название турнира.
invalid-title-length = Название турнира — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-venue-empty = Напишите место проведения.
invalid-venue-length = Место проведения — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-team-name-empty = Напишите название команды.
invalid-team-name-length = Название команды — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-reason-empty = Напишите причину.
invalid-reason-length = Причина — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    }, а у вас { $length }.
invalid-number = Нужно целое число от { $min } до { $max }.
invalid-fee = Взнос — число не меньше 0, например 500 или 500,50.
invalid-timezone = Не знаю такого часового пояса. Пример: Asia/Omsk или Europe/Moscow.
invalid-date = Дата пишется так: ДД.ММ.ГГГГ, например 20.12.2026.
invalid-date-past = Эта дата уже прошла.
invalid-date-range = Последний день — не раньше первого и не позже чем через 14 дней.
invalid-moment = Напишите дату и время так: ДД.ММ.ГГГГ ЧЧ:ММ, например 19.12.2026 18:00.
invalid-moment-range = Этот момент должен быть в будущем и не позже дня турнира.
invalid-channel = Канал указывается как @имя_канала или числом -100…
invalid-timetable-line = Строка { $line } не разобрана. Проще выбрать события кнопками под расписанием; текстом — строка на событие «день время событие [этап]», например «1 12:30 game qualifying» (время «-», если его нет).
invalid-timetable = Расписание не подходит к регламенту: { $problems }
channel-not-found = Не нашёл канал { $channel }. Проверьте имя и добавьте бота в канал.
channel-not-admin = Бот не администратор канала { $channel }. Сделайте его администратором и пришлите канал ещё раз.
channel-cannot-post = У бота нет права публиковать сообщения в { $channel }. Включите его в правах администратора и пришлите канал ещё раз.

## Создание турнира
wizard-ask-regulation = <b>Новый турнир.</b> Выберите регламент или пришлите файл регламента (JSON). /cancel — отменить.
wizard-regulation-file-too-big = Пришлите файл регламента размером до 256 КБ.
wizard-regulation-invalid =
    В файле регламента есть ошибки, исправьте и пришлите снова:
    { $problems }
wizard-ask-title = Название турнира?
wizard-ask-city = Город?
wizard-ask-venue = Место проведения (клуб, адрес)?
wizard-ask-dates = Даты: ДД.ММ.ГГГГ или ДД.ММ.ГГГГ-ДД.ММ.ГГГГ.
wizard-ask-timezone = Часовой пояс турнира? Выберите город или пришлите пояс вида Asia/Omsk.
timezone-name = { $zone ->
        [kaliningrad] Калининград (МСК−1)
        [moscow] Москва (МСК)
        [samara] Самара (МСК+1)
        [yekaterinburg] Екатеринбург (МСК+2)
        [omsk] Омск (МСК+3)
        [novosibirsk] Новосибирск (МСК+4)
        [krasnoyarsk] Красноярск (МСК+4)
        [irkutsk] Иркутск (МСК+5)
        [yakutsk] Якутск (МСК+6)
       *[vladivostok] Владивосток (МСК+7)
    }
wizard-ask-timetable =
    Расписание турнира (из регламента):
    <pre>{ $timetable }</pre>
    Нажмите на событие, чтобы изменить его время или удалить его; «Добавить событие» — новое событие по дню, виду, этапу и времени. Когда всё верно — «Готово».
wizard-timetable-games = Этап «{ $stage }»: по регламенту { $games } { $games ->
        [one] игра
        [few] игры
       *[many] игр
    } на игрока, а в расписании { $planned }. Добавьте или удалите игры этого этапа.
wizard-timetable-add = ➕ Добавить событие
wizard-timetable-done = ✅ Готово
wizard-timetable-delete = Удалить событие
wizard-timetable-day = День { $day }
wizard-timetable-event = Событие: { $event }. Выберите новое время (час, затем минуты) или удалите событие.
wizard-timetable-pick-day = Новое событие: в какой день?
wizard-timetable-pick-kind = Новое событие, день { $day }: что будет?
wizard-timetable-pick-stage = Игры какого этапа?
wizard-timetable-pick-time = { $kind ->
        [registration] Регистрация
        [opening] Открытие турнира
        [start] Начало игр
        [game] Игра
        [lunch] Обед
        [results] Подведение итогов
       *[awards] Награждение
    }: во сколько? Час, затем минуты.
wizard-timetable-kind = { $kind ->
        [registration] регистрация
        [opening] открытие турнира
        [start] начало игр
        [game] игра
        [lunch] обед
        [results] подведение итогов
       *[awards] награждение
    }
wizard-ask-capacity = Сколько игроков принимает турнир (не меньше 10)?
wizard-ask-deadline = До какого момента идёт регистрация? ДД.ММ.ГГГГ ЧЧ:ММ по времени турнира.
wizard-ask-checkin = До какого момента игроки отмечаются о прибытии? ДД.ММ.ГГГГ ЧЧ:ММ по времени турнира. После него кнопка «Я на месте» не принимается.
wizard-ask-fee = Взнос с игрока?
wizard-ask-quota = Квота: сколько игроков может заявить один клуб?
wizard-ask-channel = Канал турнира (@имя или -100…)? Бот должен быть его администратором с правом публикации.
wizard-keep-timezone = Оставить { $timezone }
wizard-keep-timetable = Оставить расписание регламента
wizard-keep-fee = Как в регламенте: { $fee }
wizard-skip-deadline = Без срока (закрою сам)
wizard-skip-checkin = Без срока (неявки отмечу сам)
wizard-skip-quota = Без квоты
wizard-skip-channel = Без канала
wizard-use-buttons = Ответьте кнопкой под сообщением или /cancel.
wizard-summary = <b>Проверьте турнир:</b>
wizard-create = Создать турнир
wizard-cancel = Отменить
wizard-cancelled = Создание турнира отменено.
wizard-switch-language = Канал на языке: { $language }

## Карточка турнира
tournament-settings =
    <b>{ $title }</b>
    Регламент: { $regulation }
    Город: { $city }; место: { $venue }
    Даты: { $dates } ({ $timezone })
    Мест: { $capacity }; регистрация до: { $deadline }; отметка о прибытии до: { $checkin }
    Взнос: { $fee }; квота клуба: { $quota }; канал: { $channel }; язык канала: { $language }
tournament-card =
    { $settings }

    Турнир № { $number }. Состояние: <b>{ $state }</b>
    Игроки: { $registered }, лист ожидания: { $waiting }, взнос оплатили: { $paid }, отметились: { $checked_in }{ $teams }
    Ссылка регистрации: { $link }
state-draft = черновик
state-registration_open = регистрация открыта
state-registration_closed = регистрация закрыта
state-running = { $stage ->
        [0] идут игры
       *[other] идёт этап { $stage } ({ $name })
    }
state-finished = турнир завершён
move-open_registration = Открыть регистрацию
move-close_registration = Закрыть регистрацию
move-reopen_registration = Снова открыть регистрацию
move-start_stage = Начать следующий этап
move-finish = Завершить турнир
move-not-now = Сейчас ({ $state }) так нельзя.
move-settings-missing = Сначала заполните: { $settings }.
move-too-few-players = Игроков { $count }, а нужно { $needed }: { $tables } { $tables ->
        [one] стол
        [few] стола
       *[many] столов
    } по 10 игроков.
move-incomplete-teams = Неполные команды (в команде { $size } { $size ->
        [one] игрок
        [few] игрока
       *[many] игроков
    }): { $teams }.
card-players = Игроки
card-teams = Команды
card-teams-line = Команды: { $teams }, полных: { $complete_teams }
card-checkin = Отметка о прибытии
card-checkin-call = Позвать отметиться
card-remind-teams = Напомнить неполным командам
card-invite-chief = Пригласить главного судью
card-invite-judge = Пригласить судью стола
card-export-csv = Список участников (CSV)
card-export-file = Файл турнира
card-rounds = Туры: рассадка, судьи, публикация
card-refresh = Обновить
tournaments-list = Ваши турниры:
tournaments-none = У вас пока нет турниров. /new — создать.
tournaments-none-player = Вы не организуете и не судите ни одного турнира. Ваши игры — /me, таблица — /standings.
export-ready = { $title }: выгрузка готова.

## Списки
roster-title = <b>{ $title }</b> — { $view }: { $count } (стр. { $page } из { $pages })
roster-view-all = все
roster-view-waiting = лист ожидания
roster-view-unpaid = не оплатили взнос
roster-view-unreachable = недоступны боту
roster-empty = Никого.
teams-title = <b>Команды</b>: { $count } (стр. { $page } из { $pages })
status-registered = зарегистрирован
status-waiting = в листе ожидания
status-withdrawn = снялся
status-no_show = не пришёл
status-excluded = исключён
status-replaced = заменён
mark-paid = взнос оплачен
mark-checked-in = на месте
mark-no-bot = не запускал бота
mark-unreachable = заблокировал бота
person-reason = Причина: { $reason }
person-paid = Отметить взнос
person-unpaid = Снять отметку о взносе
person-no-show = Не пришёл
person-substitute = Замена
person-exclude = Исключить из турнира

## Регистрация игрока
registration-tournament = Турнир <b>{ $title }</b>
registration-none = Вы ещё не зарегистрированы.
registration-mine =
    Игровой ник: <b>{ $nickname }</b>
    Клуб: { $club }; город: { $city }
    Статус: { $status }; команда: { $team }; на месте: { $checked_in }
registration-ask-nickname = Ваш игровой ник (от 2 до 32 символов)?
registration-ask-club = Ваш клуб?
registration-ask-city = Ваш город?
registration-summary =
    Проверьте:
    Игровой ник: <b>{ $nickname }</b>
    Клуб: { $club }
    Город: { $city }
registration-confirm = Всё верно
registration-redo = Исправить
registration-done = Вы зарегистрированы!
registration-waiting = Мест нет — вы в листе ожидания. Напишу, когда место освободится.
registration-edit = Изменить данные
registration-withdraw = Сняться с турнира
registration-withdraw-sure = Точно сняться с турнира?
registration-withdraw-yes = Да, сняться
registration-withdraw-no = Нет
registration-withdrawn = Вы сняты с турнира.
registration-frozen = Турнир уже начался: регистрацию менять нельзя.
registration-not-open = Регистрация на этот турнир сейчас не идёт.
registration-deadline-passed = Срок регистрации истёк.
already-registered = Вы уже зарегистрированы на этот турнир.
nickname-taken = Игровой ник «{ $nickname }» уже занят в этом турнире.
club-quota-full = Квота клуба «{ $club }» ({ $quota }) уже заполнена.

## Команды
team-create = Создать команду
team-mine = Моя команда
team-ask-name = Название команды?
team-view =
    Команда <b>{ $name }</b> ({ $count } из { $size }) — { $complete }
    { $members }
team-complete = полная
team-incomplete = неполная
team-invite = Ссылка для игроков команды: { $link }
team-remove = Убрать { $nickname }
team-withdraw = Снять команду с турнира
team-withdraw-sure = Снять команду? Все её игроки снимутся с турнира.
team-withdraw-yes = Да, снять команду
team-withdrawn = Команда снята с турнира.
team-reminded = Напоминаний отправлено: { $count }.
team-name-taken = Команда «{ $name }» уже есть в этом турнире.
team-full = В команде «{ $name }» уже { $size } { $size ->
        [one] игрок
        [few] игрока
       *[many] игроков
    }.
team-join-withdrawn = Команда «{ $name }» снята с турнира.
team-already-member = Вы уже в команде.
team-not-member = Этот игрок не в вашей команде.
team-captain-stays = Капитан не может убрать себя: снимите команду целиком.
team-change-after-start = Турнир начался: состав команды менять нельзя.
team-withdraw-after-start = По регламенту команда не может сняться после начала турнира.
team-not-team-tournament = Это личный турнир, команд в нём нет.

## Судьи и организаторы
staff-organizer-link = Одноразовая ссылка, которая делает организатором: { $link }
staff-link-chief_judge = Одноразовая ссылка для главного судьи: { $link }
staff-link-table_judge = Одноразовая ссылка для судьи стола: { $link }
staff-became-organizer = Теперь вы организатор: /new — создать турнир, /tournaments — ваши турниры.
staff-became-chief = Теперь вы главный судья турнира «{ $title }». /tournaments — карточка турнира.
staff-became-judge = Теперь вы судья (ведущий) стола турнира «{ $title }». /tournaments — карточка турнира.

## День турнира
checkin-button = Я на месте
checkin-done = Отметка о прибытии принята. Удачной игры!
checkin-closed = Отметка о прибытии сейчас не идёт.
checkin-cutoff-passed = Время отметки о прибытии вышло — подойдите к организатору.
checkin-called = Позвали отметиться: { $count }.
checkin-screen =
    <b>Отметка о прибытии</b>
    На месте: { $present }, не отметились: { $missing }, места для замены: { $freed }
    Выберите игрока:
no-show-not-missing = { $nickname } уже отметился или не играет.
exclude-ask-reason = Причина исключения (решение судейской коллегии)?
exclude-done = { $nickname } исключён из турнира.
exclude-not-playing = { $nickname } сейчас не играет в турнире.
substitute-choose = Кто заменит { $nickname }? Замена сыграет оставшиеся игры.
substitute-newcomer = Новый игрок
substitute-ask-newcomer = Новый игрок: «игровой ник; клуб; город».
substitute-newcomer-format = Напишите три части через «;»: игровой ник; клуб; город.
substitute-done = { $nickname } — замена, играет оставшиеся игры.
substitute-not-replaceable = { $nickname } не ждёт замены: заменить можно неявившегося или исключённого игрока.
substitute-not-waiting = Этот игрок больше не в листе ожидания.
substitute-already-replaced = У { $nickname } уже есть замена — { $substitute }: вторую замену назначить нельзя.
substitute-already-substitutes = { $nickname } уже заменяет другого игрока и не может заменить второго.

## Сообщения от бота
notice-promoted = Освободилось место: вы зарегистрированы на турнир «{ $tournament }»!
notice-team-withdrawn = Команда «{ $team }» снята с турнира капитаном, вы тоже сняты.
notice-team-joined = { $nickname } вступил в команду «{ $team }».
notice-team-complete = { $nickname } вступил в команду «{ $team }» — команда полная!
notice-team-removed = Капитан убрал вас из команды «{ $team }». Вы остаётесь в регистрации без команды.
notice-team-incomplete = Команда «{ $team }» неполная: { $count } из { $size }. Пригласите игроков до конца регистрации.
notice-excluded = Главный судья исключил вас из турнира «{ $tournament }». Причина: { $reason }
notice-substitute = Вы — замена за { $nickname } в турнире «{ $tournament }» и играете оставшиеся игры.
notice-checkin = Турнир «{ $tournament }»: подтвердите, что вы на месте.
command-tournaments = Мои турниры
command-new = Создать турнир

## Этап переходит дальше, только когда он закончен (карточка и отказ в переходе)
card-stage-held = Следующий шаг (новый этап или завершение турнира) пока недоступен: { $reason }
move-stage-not-seated = этап { $stage } ещё не рассажен и не сыгран.
move-rounds-unpublished = { $count ->
        [1] не опубликован тур
       *[other] не опубликованы туры
    } { $rounds }.
move-tables-unconfirmed = тур { $round }: { $count ->
        [1] не подтверждён протокол стола { $tables }
       *[other] не подтверждены протоколы столов { $tables }
    }{ $others ->
        [0] {""}
       *[other] , и ещё { $others } в следующих турах
    }.
move-protest-pending = тур { $round }: ждёт решения протест на { $count ->
        [1] игру стола { $tables }
       *[other] игры столов { $tables }
    }{ $others ->
        [0] {""}
       *[other] , и ещё { $others } в следующих турах
    }.
move-protest-window-open = окно протестов последних игр этапа открыто до { $until }; с этого времени переход станет доступен: карточка обновится сама.
move-cut-needs-lot = на границе отбора ничья, главный судья должен провести жребий (/lot): мест под вопросом — { $places }.

## Неявившегося игрока заменили
notice-replaced = Вас отметили как неявившегося в турнире «{ $tournament }», и оставшиеся игры за вас играет { $nickname }.
registration-replaced = Турнир «{ $tournament }»: вас отметили как неявившегося, и оставшиеся игры за вас играет { $nickname }. Зарегистрироваться заново нельзя; если это ошибка, обратитесь к организатору.
registration-excluded = Турнир «{ $tournament }»: главный судья исключил вас из турнира. Причина: { $reason }

## Капитану: игрок покинул команду
notice-team-left = { $nickname } покинул команду «{ $team }»: в ней { $count } из { $size }. Пригласите игрока по ссылке команды.

## Капитан узнаёт, что игрок его команды получил место из листа ожидания
notice-team-member-promoted = { $nickname } из команды «{ $team }» получил место из листа ожидания: в команде { $count } из { $size }.
notice-team-complete-promoted = { $nickname } получил место из листа ожидания — команда «{ $team }» полная!
notice-team-member-excluded = { $nickname } исключён из турнира: в команде «{ $team }» { $count ->
        [one] играет
        [few] играют
       *[many] играют
    } { $count } из { $size }. Замену назначает организатор.
card-web-public = Веб-страница: сделать открытой
card-web-unlisted = Веб-страница: только по ссылке
card-web-off = Веб-страница: выключить
card-web-page = { $unlisted ->
    [true] Страница турнира (только по этой ссылке): { $url }
   *[false] Страница турнира для зрителей: { $url }
}
card-web-page-draft = Она откроется вместе с регистрацией.
card-web-page-off = Страница турнира для зрителей выключена.
card-web-page-no-address = { $unlisted ->
    [true] Страница турнира открыта только по ссылке; ссылка появится, когда администратор бота укажет адрес сайта.
   *[false] Страница турнира для зрителей открыта; ссылка появится, когда администратор бота укажет адрес сайта.
}
