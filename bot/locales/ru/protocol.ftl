# Экран протокола игры (handlers/protocol.py): судья стола заполняет его кнопками.

protocol-screen-title = <b>Протокол · тур { $game } · стол { $table }</b>
protocol-screen-correcting = <i>Исправление подтверждённого протокола</i>
protocol-screen-hint = { $mode ->
        [roles] Роли: нажмите место дона, затем шерифа, затем двух мафий — остальные станут мирными. Другая роль — кнопкой внизу.
        [fouls] Фолы: нажмите место — фол добавится (или снимется, или дисквалификация).
        [kill] Первый убитый (ПУ): выберите ночь, затем нажмите место.
        [best_move] Лучший ход: отметьте места, которые назвал первый убитый (до трёх).
        [extra] Дополнительные баллы: нажмите место и выберите, сколько ему дать; затем — кто победил.
        [winner] Кто победил?
       *[summary] Сводка: проверьте баллы и подтвердите протокол.
    }
protocol-screen-extra-pick = Место { $seat } ({ $nickname }): сколько дополнительных баллов?
protocol-screen-best-move-needs-victim = Сначала укажите первого убитого (режим «ПУ»).
protocol-screen-role = { $role ->
        [don] дон
        [sheriff] шериф
        [mafia] мафия
        [civilian] мирный
       *[none] роль не указана
    }
protocol-screen-fouls = фолы: { $fouls }
protocol-screen-removed = { $removed ->
        [fouls] удалён за фолы
       *[disqualified] дисквалифицирован
    }
protocol-screen-extra = допы { $extra }
protocol-screen-winner = Победа: { $winner ->
        [red] красных (мирных)
        [black] чёрных (мафии)
       *[none] не указана
    }
protocol-screen-first-kill = Первый убитый: место { $seat }, ночь { $night }
protocol-screen-no-first-kill = Первый убитый: промахи — никого не убили
protocol-screen-first-kill-unknown = Первый убитый: не указан
protocol-screen-best-move = Лучший ход: { $seats }
protocol-screen-best-move-nobody = Лучший ход: никого не назвал
protocol-screen-missing = Осталось заполнить:
protocol-screen-ready = Всё заполнено — откройте «Сводку» и подтвердите.
protocol-screen-refused = Нельзя:
protocol-screen-score = { $seat }. { $nickname }: <b>{ $total }</b> ({ $breakdown })
protocol-screen-score-alone = { $seat }. { $nickname }: <b>{ $total }</b>
protocol-screen-part-win = победа { $points }
protocol-screen-part-loss = поражение { $points }
protocol-screen-part-best-move = ЛХ { $points }
protocol-screen-part-extra = допы { $points }
protocol-screen-part-penalty = штраф { $points }
protocol-screen-protest-until = Протест по результату — до { $time }.
protocol-screen-confirmed = Протокол подтверждён.
protocol-screen-corrected = Исправление сохранено.
protocol-screen-already-confirmed = Протокол уже подтверждён: исправить его может только главный судья.
protocol-screen-not-opened = Протокол ещё не открыт: откройте его из сообщения о рассадке.
protocol-screen-not-confirmed = Протокол ещё не подтверждён.
protocol-screen-not-yours = Этот протокол ведёт судья стола или главный судья.
protocol-screen-no-games = Открытых протоколов у вас нет.
protocol-screen-choose = Выберите протокол:
protocol-screen-game-of = { $tournament } · { $game }
protocol-screen-game-button = Тур { $game } · стол { $table }{ $confirmed ->
        [yes] {" "}✓
       *[no] {""}
    }

# Кнопки экрана.
protocol-screen-mode = { $mode ->
        [roles] Роли
        [fouls] Фолы
        [kill] ПУ
        [best_move] ЛХ
        [extra] Допы
        [winner] Победа
       *[summary] Сводка
    }
protocol-screen-mark = { $role ->
        [don] Дон
        [sheriff] Шер
        [mafia] Маф
        [civilian] Мир
       *[none] ·
    }
protocol-screen-tool-role = { $role ->
        [don] Дон
        [sheriff] Шериф
        [mafia] Мафия
        [civilian] Мирный
       *[none] Стереть
    }
protocol-screen-rest-civilians = Остальные — мирные
protocol-screen-tool-add-foul = + фол
protocol-screen-tool-remove-foul = − фол
protocol-screen-tool-disqualify = Дисквалификация
protocol-screen-tool-night = { $night ->
        [1] Ночь 1 (первый отстрел)
       *[other] Ночь { $night }
    }
protocol-screen-tool-no-kill = Промахи — никого не убили
protocol-screen-tool-no-best-move = Никого не назвал
protocol-screen-tool-winner = { $winner ->
        [red] Победа красных
       *[black] Победа чёрных
    }
protocol-screen-confirm = ✅ Подтвердить протокол
protocol-screen-correct = Исправить протокол
protocol-screen-cancel-correction = Отменить исправление

# Результат игры в канале турнира.
protocol-result = <b>{ $stage } · тур { $game } · стол { $table }: победа { $winner ->
        [red] красных (мирных)
       *[black] чёрных (мафии)
    }{ $end }</b>
    Дон: { $don } · шериф: { $sheriff } · мафия: { $mafia }
    { $seats }
protocol-result-corrected = <b>Исправлен результат · { $stage } · тур { $game } · стол { $table }: победа { $winner ->
        [red] красных (мирных)
       *[black] чёрных (мафии)
    }{ $end }</b>
    Дон: { $don } · шериф: { $sheriff } · мафия: { $mafia }
    { $seats }
protocol-result-seat = { $seat }. { $nickname } — { $total }
protocol-result-seat-parts = { $seat }. { $nickname } — { $total } ({ $parts })
protocol-result-part-win = победа { $points }
protocol-result-part-best-move = ЛХ { $points }
protocol-result-part-extra = допы { $points }
protocol-result-part-penalty = { $points } дискв.

# Как закончилась игра (domain.protocol.GameEnd): на экране протокола, в канале, в /me.
game-end = { $end ->
        [black_out] все чёрные выбыли
        [parity] чёрных столько же, сколько красных
        [missed_nights] три промаха чёрных подряд
        [four_players_three_nights] четыре игрока и три ночи без убийства
        [awarded_defeat] { $winner ->
            [red] чёрным присуждено поражение
           *[black] красным присуждено поражение
        }
       *[none] не указано
    }
protocol-screen-end = Как закончилась игра: { game-end }
protocol-screen-ended-at = Конец игры: { $time }
protocol-screen-tool-end = { $winner ->
        [red] Красные
       *[black] Чёрные
    }: { game-end }
protocol-screen-tool-end-time = { $minutes ->
        [-5] −5 мин
        [-1] −1 мин
        [1] +1 мин
       *[5] +5 мин
    }
protocol-result-end = { $end ->
        [none] {""}
       *[other] { " · " }{ game-end }
    }
