# The judge's live game (Mini App, bot/web/miniapp) and its rules (domain/game_log/).

game-log-bad-action = Непонятное действие: обновите страницу.
game-log-bad-seat = Места { $seat } нет: места от 1 до 10.
game-log-seat-out = Игрок { $seat } уже покинул игровой стол.
game-log-game-over = Игра уже окончена.
game-log-not-now = Сейчас этого сделать нельзя.
game-log-not-speaker = Сейчас говорит не игрок { $seat }: выставляет только говорящий.
game-log-nominated-already = Игрок { $seat } уже выставил кандидатуру в этот день.
game-log-candidate-already = Игрок { $seat } уже выставлен.
game-log-no-withdrawal = По регламенту кандидатуру отозвать нельзя.
game-log-nothing-to-withdraw = Игрок { $seat } никого не выставлял.
game-log-bad-votes = Голоса нужно указать за каждого кандидата.
game-log-votes-total = Голосов { $total }, а за столом { $voters }: не проголосовавший голосует за последнего выставленного.
game-log-checked-already = Эта проверка уже сделана.
game-log-extra-at-end = Дополнительные баллы — после окончания игры.
game-log-finish-needs-comment = Укажите причину, по которой игра окончена иначе.
game-log-nobody-left = За столом никого не осталось.

miniapp-title = Игра · тур { $game } · стол { $table }
miniapp-open = 🎲 Вести игру
miniapp-unauthorized = Откройте игру из Telegram: подпись не подтверждена.
miniapp-not-yours = Эту игру ведёт судья стола или главный судья.
miniapp-loading = Загрузка…
miniapp-undo = ↶ Отменить
miniapp-next = Дальше ▶
miniapp-start-timer = ▶ Таймер
miniapp-pause-timer = ⏸ Пауза
miniapp-reset-timer = ⟲ Сначала
miniapp-roles = Роли
miniapp-roles-hint = Нажмите роль, затем место. Остальные — мирные.
miniapp-roles-rest = Остальные — мирные
miniapp-roles-done = Роли розданы
miniapp-role-civilian = Мирный
miniapp-role-sheriff = Шериф
miniapp-role-mafia = Мафия
miniapp-role-don = Дон
miniapp-role-none = ?
miniapp-foul = Фол
miniapp-fouls-mode = Фолы: нажмите место
miniapp-disqualify = Дисквалификация
miniapp-silenced = без слова
miniapp-out-voted = заголосован
miniapp-out-killed = убит
miniapp-out-fouls = удалён (4 фола)
miniapp-out-disqualified = дисквалифицирован
miniapp-phase-introduction = Ночь знакомства: дон, мафия, шериф
miniapp-phase-speeches = День { $day }: говорит игрок { $seat }
miniapp-phase-silent = День { $day }: игрок { $seat } лишён слова (3 фола), но может выставить
miniapp-phase-voting = День { $day }: голосование
miniapp-phase-split_speeches = Попил: говорит игрок { $seat }
miniapp-phase-revote = Переголосование
miniapp-phase-all_or_nobody = Кто за то, чтобы все голосуемые покинули стол?
miniapp-phase-last_words = Последнее слово: игрок { $seat }
miniapp-phase-shot = Ночь { $night }: выстрел мафии
miniapp-phase-don_check = Ночь { $night }: проверка дона
miniapp-phase-sheriff_check = Ночь { $night }: проверка шерифа
miniapp-phase-best_move = Лучший ход игрока { $seat }: кого он называет чёрными?
miniapp-phase-morning_last_word = Утро: последнее слово игрока { $seat }
miniapp-phase-end_detected = Игра окончена?
miniapp-phase-finished = Игра окончена: допы и подтверждение
miniapp-nominate = Выставить
miniapp-nominate-hint = Нажмите место, чтобы игрок { $seat } выставил его.
miniapp-withdraw = Отозвать кандидатуру
miniapp-nominees = На голосовании: { $seats }
miniapp-no-vote = Сегодня голосования нет (удаление).
miniapp-votes-hint = Голоса за каждого (всего { $voters }); остаток уходит последнему.
miniapp-votes-submit = Голосование окончено
miniapp-all-votes = За то, чтобы покинули стол:
miniapp-miss = Промах
miniapp-shoot-hint = Нажмите место убитого или «Промах».
miniapp-check-hint = Нажмите проверяемое место.
miniapp-check-skip = Без проверки
miniapp-check-result-sheriff = шериф
miniapp-check-result-not-sheriff = не шериф
miniapp-check-result-black = чёрный
miniapp-check-result-red = красный
miniapp-best-move-hint = Нажмите до трёх мест, затем «Готово».
miniapp-best-move-done = Готово
miniapp-best-move-none = Не назвал
miniapp-end-black_out = Все чёрные покинули стол: победа красных
miniapp-end-parity = Чёрных столько же, сколько красных: победа чёрных
miniapp-end-missed_nights = Три промаха чёрных подряд: победа красных
miniapp-end-four_players_three_nights = Четыре игрока и три ночи без убийства: победа красных
miniapp-end-awarded_defeat = Техническое поражение (подсказки из зала)
miniapp-end-judge = Решение судьи
miniapp-end-confirm = Подтвердить окончание
miniapp-end-other = Окончить иначе
miniapp-end-winner-red = Победа красных
miniapp-end-winner-black = Победа чёрных
miniapp-end-comment = Причина (для протокола)
miniapp-extra = Допы
miniapp-extra-hint = Нажмите место, затем баллы.
miniapp-summary = Итог
miniapp-confirm = ✅ Подтвердить протокол
miniapp-confirmed = Протокол подтверждён: результат в канале.
miniapp-missing = Не хватает:
miniapp-timer-warning = Осталось { $seconds } с
miniapp-log = Ход игры
miniapp-part-win = победа { $points }
miniapp-part-best-move = ЛХ { $points }
miniapp-part-extra = допы { $points }
miniapp-part-penalty = штраф { $points }
miniapp-part-loss = поражение { $points }

# The live game's log for the chief judge deciding a protest (handlers/game_log.py).
protest-game-log = 📜 Ход игры
game-log-none = Игру вели не в мини-приложении: хода игры нет, только протокол.
game-log-title = <b>Ход игры</b> (как судья записывал её за столом)
game-log-where-introduction = ночь знакомства
game-log-where-day = день { $day }
game-log-where-night = ночь { $night }
game-log-where-end = после игры
game-log-line-roles = роли: дон { $don }, шериф { $sheriff }, мафия { $mafia }
game-log-line-nominate = { $by } выставил { $target }
game-log-line-withdraw = { $by } отозвал кандидатуру
game-log-line-votes = голосование: { $votes }
game-log-line-all-or-nobody = за то, чтобы покинули стол все: { $votes }
game-log-line-miss = промах
game-log-line-shot = убит { $seat }
game-log-line-check = проверка { $by ->
        [don] дона
       *[sheriff] шерифа
    }: { $seat }
game-log-line-best-move = лучший ход: { $seats }
game-log-line-foul = фол игроку { $seat } (всего { $fouls })
game-log-line-disqualify = дисквалификация игрока { $seat }
game-log-line-finish = конец игры: победа { $winner ->
        [red] красных
       *[black] чёрных
    } { $end ->
        [black_out] (все чёрные выбыли)
        [parity] (чёрных столько же, сколько красных)
        [missed_nights] (три промаха подряд)
        [four_players_three_nights] (четыре игрока, три ночи без убийства)
        [awarded_defeat] (техническое поражение)
       *[none] {""}
    }
game-log-line-extra = допы игроку { $seat }: { $points }
miniapp-extra-comment = За что допы (комментарий)

# Offline first, fewer taps, who voted for whom, technical fouls (issue 29).
game-log-bad-ballots = Отметьте голос каждого игрока за столом: кто за кого.
game-log-line-technical-foul = технический фол игроку { $seat } (всего { $fouls })
miniapp-offline = Нет связи: нажатия сохранены на телефоне и уйдут на сервер, когда связь вернётся.
miniapp-pending = Не сохранено на сервере: { $count }
miniapp-saved = Всё сохранено
miniapp-conflict = Игру изменили на другом устройстве: ваши несохранённые нажатия ({ $count }) не применены.
miniapp-refused-queued = Сервер не принял нажатие, несохранённые нажатия ({ $count }) не применены: { $reason }
miniapp-conflict-discard = Показать игру с сервера (отбросить { $count })
miniapp-foul-tap = +фол
miniapp-technical = Тех. фол
miniapp-technical-mode = Технические фолы: нажмите место
miniapp-technical-marks = тех { $count }
miniapp-ballots-hint = Кто голосует за { $seat }? Отметьте места, затем «Дальше».
miniapp-ballots-next = Дальше ▶
miniapp-waiting-server = Итог и подтверждение — когда нажатия сохранятся на сервере.
