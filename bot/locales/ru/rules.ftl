# Ошибки протокола игры (domain/protocol.py): судья видит их на экране протокола.

protocol-seat-count = За столом 10 мест, а в протоколе { $count }.
protocol-player-missing = Место { $seat }: не указан игрок.
protocol-player-repeated = Место { $seat }: игрок { $player } уже сидит на месте { $other_seat }.
protocol-role-count = Роль «{ $role ->
        [civilian] мирный житель
        [sheriff] шериф
        [mafia] мафия
       *[don] дон
    }»: за столом { $count }, а должно быть ровно { $expected }.
protocol-fouls-range = Место { $seat }: { $fouls } { $fouls ->
        [one] фол
        [few] фола
       *[many] фолов
    }, допустимо от 0 до { $max }.
protocol-removal-needs-fouls = Место { $seat }: удаление за фолы, но фолов { $fouls }, а удаляют за { $max }.
protocol-fouls-need-removal = Место { $seat }: { $max } { $max ->
        [one] фол
        [few] фола
       *[many] фолов
    } — это удаление за фолы.
protocol-first-killed-seat = Первый убитый: места { $first_killed } нет, места от 1 до 10.
protocol-first-killed-night = Первое убийство в ночь { $night }: ночи считаются с 1.
protocol-best-move-without-victim = Лучший ход указан, но никого не убили.
protocol-best-move-not-victim = Место { $seat }: лучший ход делает только первый убитый.
protocol-best-move-not-first-night = Место { $seat }: первое убийство было в ночь { $night }, лучший ход делает только убитый в первую ночь.
protocol-best-move-role = Место { $seat }: { $role ->
        [civilian] мирный житель
        [sheriff] шериф
        [mafia] мафия
       *[don] дон
    } не делает лучший ход.
protocol-best-move-size = Место { $seat }: в лучшем ходе { $count } { $count ->
        [one] номер
        [few] номера
       *[many] номеров
    }, можно не больше { $max }.
protocol-best-move-seat = Место { $seat }: в лучшем ходе номер { $named }, а места от 1 до 10.
protocol-best-move-self = Место { $seat }: первый убитый не может назвать в лучшем ходе себя.
protocol-best-move-repeated = Место { $seat }: номер { $named } назван в лучшем ходе дважды.
protocol-extra-negative = Место { $seat }: дополнительные баллы { $extra } меньше нуля.
protocol-extra-below-min = Место { $seat }: дополнительные баллы { $extra }, а можно не меньше { $min }.
protocol-extra-above-max = Место { $seat }: дополнительные баллы { $extra }, а одному игроку можно не больше { $max }.
protocol-extra-step = Место { $seat }: дополнительные баллы { $extra } не кратны { $step }.
protocol-extra-first-killed = Место { $seat }: первый убитый не получает дополнительные баллы.
protocol-extra-total = Дополнительных баллов за игру { $total }, а можно не больше { $max }.
protocol-extra-recipients = Дополнительные баллы { $count ->
        [one] получил { $count } игрок
        [few] получили { $count } игрока
       *[many] получили { $count } игроков
    }, а можно не больше { $max }.

# Что ещё не заполнено в протоколе.
protocol-missing-players = Не все места заняты игроками.
protocol-missing-roles = Не у всех игроков указана роль.
protocol-missing-winner = Не указан победитель: победа красных (мирных) или чёрных (мафии).
protocol-missing-first-killed = Не указан первый убитый (или что убийств не было).
protocol-missing-best-move = Не указан лучший ход первого убитого (или что он никого не назвал).

## Удалённого игрока нельзя убить
protocol-first-killed-removed = Место { $seat }: игрок удалён ({ $removal ->
        [fouls] четвёртый фол
       *[disqualified] дисквалификация
    }), удалённого нельзя убить — первым убитым он быть не может.

## Как закончилась игра: кроме выбывания — особые случаи регламента
protocol-end-not-allowed = В регламенте турнира нет такого окончания игры: { $end ->
        [missed_nights] три промаха чёрных подряд
        [four_players_three_nights] четыре игрока и три ночи без убийства
        [awarded_defeat] присуждённое поражение
       *[other] { $end }
    }.
protocol-end-winner = { $end ->
        [black_out] Все чёрные выбыли
        [parity] Чёрных столько же, сколько красных
        [missed_nights] Три промаха чёрных подряд
       *[four_players_three_nights] Четыре игрока и три ночи без убийства
    } — это { $expected ->
        [red] победа красных
       *[black] победа чёрных
    }, а указана { $winner ->
        [red] победа красных
       *[black] победа чёрных
    }.

## Время окончания игры: судья его поправляет
protocol-end-time-before-end = Игра ещё не закончилась: сначала укажите победителя.
protocol-end-time-future = Время окончания игры не может быть позже текущего.
protocol-end-time-early = Игра не могла закончиться раньше, чем опубликована рассадка тура ({ $earliest }).
