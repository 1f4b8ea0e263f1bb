# Рассадка и туры (handlers/rounds.py, domain/services/rounds.py).

round-seat-player = Игра { $game } ({ $time }): стол { $table }, место { $seat }. Судья стола: { $judge }.
round-sit-out-player = Игра { $game } ({ $time }): в этой игре вы не играете.
round-judge-list = Вы судья стола { $table }, игра { $game } ({ $time }):
    { $players }
round-judge-list-corrected = Исправление рассадки. Стол { $table }, игра { $game } ({ $time }):
    { $players }
round-judge-released = Игра { $game }: вы больше не судья стола { $table }.
round-open-protocol = Открыть протокол
round-channel-post = <b>Рассадка: игра { $game } ({ $time }){ $parts ->
        [1] {""}
       *[other] , часть { $part } из { $parts }
    }</b>

    { $tables }
round-channel-correction = <b>Исправление рассадки, игра { $game }</b>
    { $changes }
round-correction-player = Исправление рассадки, игра { $game }: теперь вы за столом { $table }, место { $seat }.
round-correction-sit-out = Исправление рассадки, игра { $game }: в этой игре вы не играете.

# Отказы.
stage-not-started = Этап ещё не начат: начните его в карточке турнира.
stage-not-seated = Рассадка этапа ещё не составлена.
stage-cut-needs-lot = Проход в следующий этап не решён: { $places } мест(а) делят игроки с равными показателями — нужен жребий.
stage-too-few-players = Игроков { $count }: на { $tables } стол(а) нужно по 10 игроков.
stage-seating-impossible = Рассадку составить нельзя: { $reason }
stage-all-published = Все туры этапа уже опубликованы.
stage-changed-meanwhile = Рассадку изменили, пока она составлялась: повторите.
round-unknown = Тура { $round } нет: в этапе { $rounds } туров.
round-edit-no-seat = Места { $table }.{ $seat } нет.
round-edit-same-player = Это один и тот же игрок.
round-edit-not-in-round = Игрок { $player } не играет в этом этапе.
round-edit-both-sit-out = Оба игрока пропускают этот тур: менять нечего.
round-edit-teammates = Так за столом { $table } окажутся игроки одной команды: { $first } и { $second }.
round-edit-started = За столом { $table } протокол уже начат: рассадку тура менять нельзя.
round-judge-busy = { $judge } уже судит другой стол этого тура.
round-already-published = Тур { $round } уже опубликован.
