# Game protocol errors (domain/protocol.py): the judge sees them on the protocol screen.

protocol-seat-count = A table has 10 seats, this protocol has { $count }.
protocol-player-missing = Seat { $seat }: no player.
protocol-player-repeated = Seat { $seat }: player { $player } already sits at seat { $other_seat }.
protocol-role-count = { $count } { $role ->
        [civilian] civilians
        [sheriff] sheriffs
        [mafia] mafia
       *[don] dons
    } at the table, there must be exactly { $expected }.
protocol-fouls-range = Seat { $seat }: { $fouls } { $fouls ->
        [one] foul
       *[other] fouls
    }, allowed 0 to { $max }.
protocol-removal-needs-fouls = Seat { $seat }: removed for fouls with { $fouls } { $fouls ->
        [one] foul
       *[other] fouls
    }, removal takes { $max }.
protocol-fouls-need-removal = Seat { $seat }: { $max } { $max ->
        [one] foul means
       *[other] fouls mean
    } removal for fouls.
protocol-first-killed-seat = First victim: there is no seat { $first_killed }, seats are 1 to 10.
protocol-first-killed-night = First kill on night { $night }: nights start at 1.
protocol-best-move-without-victim = A best move is entered, but nobody was killed.
protocol-best-move-not-victim = Seat { $seat }: only the first victim makes the best move.
protocol-best-move-not-first-night = Seat { $seat }: the first kill was on night { $night }, only a first-night victim makes the best move.
protocol-best-move-role = Seat { $seat }: { $role ->
        [civilian] a civilian
        [sheriff] the sheriff
        [mafia] a mafia
       *[don] the don
    } does not make a best move.
protocol-best-move-size = Seat { $seat }: the best move names { $count } { $count ->
        [one] seat
       *[other] seats
    }, at most { $max }.
protocol-best-move-seat = Seat { $seat }: the best move names seat { $named }, seats are 1 to 10.
protocol-best-move-self = Seat { $seat }: the first victim cannot name himself in the best move.
protocol-best-move-repeated = Seat { $seat }: seat { $named } is named twice in the best move.
protocol-extra-negative = Seat { $seat }: extra points below zero ({ $extra }).
protocol-extra-below-min = Seat { $seat }: extra points { $extra }, anyone who gets them gets at least { $min }.
protocol-extra-above-max = Seat { $seat }: extra points { $extra }, at most { $max } per player.
protocol-extra-step = Seat { $seat }: extra points { $extra }, not a multiple of { $step }.
protocol-extra-first-killed = Seat { $seat }: the first victim gets no extra points.
protocol-extra-total = Extra points in this game: { $total }, at most { $max }.
protocol-extra-recipients = { $count ->
        [one] { $count } player got
       *[other] { $count } players got
    } extra points, at most { $max }.

# What is still missing from a protocol.
protocol-missing-players = Not every seat has a player.
protocol-missing-roles = Not every player has a role.
protocol-missing-winner = No winner yet: red (civilians) or black (mafia).
protocol-missing-first-killed = No first victim yet (or that nobody was killed).
protocol-missing-best-move = No best move of the first victim yet (or that he named nobody).

## A removed player cannot be shot
protocol-first-killed-removed = Seat { $seat }: the player was removed ({ $removal ->
        [fouls] fourth foul
       *[disqualified] disqualification
    }); a removed player cannot be shot, so he cannot be the first victim.

## How the game ended: besides elimination, the regulation's special cases
protocol-end-not-allowed = The tournament's regulation has no such end of a game: { $end ->
        [missed_nights] black missed three nights in a row
        [four_players_three_nights] four players and three nights without a kill
        [awarded_defeat] a defeat awarded
       *[other] { $end }
    }.
protocol-end-winner = { $end ->
        [black_out] Every black player out
        [parity] As many black as red players
        [missed_nights] Black missed three nights in a row
       *[four_players_three_nights] Four players and three nights without a kill
    } is a { $expected ->
        [red] red
       *[black] black
    } win, but the winner entered is { $winner ->
        [red] red
       *[black] black
    }.

## The end of the game: the judge corrects it
protocol-end-time-before-end = The game has not ended yet: enter the winner first.
protocol-end-time-future = The end of the game cannot be later than now.
protocol-end-time-early = The game cannot have ended before its round's seating was published ({ $earliest }).
