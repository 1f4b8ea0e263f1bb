# The game protocol screen (handlers/protocol.py): the table judge fills it with buttons.

protocol-screen-title = <b>Protocol · round { $game } · table { $table }</b>
protocol-screen-correcting = <i>Correcting a confirmed protocol</i>
protocol-screen-hint = { $mode ->
        [roles] Roles: tap the don's seat, then the sheriff's, then the two mafia: the rest become civilians. Another role: a button below.
        [fouls] Fouls: tap a seat to add a foul (or take one back, or disqualify).
        [kill] First killed (FK): pick the night, then tap the seat.
        [best_move] Best move: mark the seats the first victim named (up to three).
        [extra] Extra points: tap a seat and pick how many it gets; then who won.
        [winner] Who won?
       *[summary] Summary: check the points and confirm the protocol.
    }
protocol-screen-extra-pick = Seat { $seat } ({ $nickname }): how many extra points?
protocol-screen-best-move-needs-victim = Enter the first victim first ("FK" mode, the first killed).
protocol-screen-role = { $role ->
        [don] don
        [sheriff] sheriff
        [mafia] mafia
        [civilian] civilian
       *[none] no role yet
    }
protocol-screen-fouls = fouls: { $fouls }
protocol-screen-removed = { $removed ->
        [fouls] removed for fouls
       *[disqualified] disqualified
    }
protocol-screen-extra = extra { $extra }
protocol-screen-winner = Winner: { $winner ->
        [red] red (civilians)
        [black] black (mafia)
       *[none] not entered
    }
protocol-screen-first-kill = First killed: seat { $seat }, night { $night }
protocol-screen-no-first-kill = First killed: misses — nobody killed
protocol-screen-first-kill-unknown = First killed: not entered
protocol-screen-best-move = Best move: { $seats }
protocol-screen-best-move-nobody = Best move: named nobody
protocol-screen-missing = Still to enter:
protocol-screen-ready = Everything is entered: open the summary and confirm.
protocol-screen-refused = Not allowed:
protocol-screen-score = { $seat }. { $nickname }: <b>{ $total }</b> ({ $breakdown })
protocol-screen-score-alone = { $seat }. { $nickname }: <b>{ $total }</b>
protocol-screen-part-win = win { $points }
protocol-screen-part-loss = loss { $points }
protocol-screen-part-best-move = best move { $points }
protocol-screen-part-extra = extra { $points }
protocol-screen-part-penalty = penalty { $points }
protocol-screen-protest-until = Protests against the result until { $time }.
protocol-screen-confirmed = The protocol is confirmed.
protocol-screen-corrected = The correction is saved.
protocol-screen-already-confirmed = The protocol is already confirmed: only the chief judge can correct it.
protocol-screen-not-opened = The protocol is not open yet: open it from the seating message.
protocol-screen-not-confirmed = The protocol is not confirmed yet.
protocol-screen-not-yours = This protocol is kept by the table's judge or the chief judge.
protocol-screen-no-games = You have no open protocols.
protocol-screen-choose = Choose a protocol:
protocol-screen-game-of = { $tournament } · { $game }
protocol-screen-game-button = Round { $game } · table { $table }{ $confirmed ->
        [yes] {" "}✓
       *[no] {""}
    }

# The screen's buttons.
protocol-screen-mode = { $mode ->
        [roles] Roles
        [fouls] Fouls
        [kill] FK
        [best_move] Best move
        [extra] Extra
        [winner] Winner
       *[summary] Summary
    }
protocol-screen-mark = { $role ->
        [don] Don
        [sheriff] Sher
        [mafia] Maf
        [civilian] Civ
       *[none] ·
    }
protocol-screen-tool-role = { $role ->
        [don] Don
        [sheriff] Sheriff
        [mafia] Mafia
        [civilian] Civilian
       *[none] Clear
    }
protocol-screen-rest-civilians = The rest are civilians
protocol-screen-tool-add-foul = + foul
protocol-screen-tool-remove-foul = − foul
protocol-screen-tool-disqualify = Disqualify
protocol-screen-tool-night = { $night ->
        [1] Night 1 (first shooting)
       *[other] Night { $night }
    }
protocol-screen-tool-no-kill = Misses — nobody killed
protocol-screen-tool-no-best-move = Named nobody
protocol-screen-tool-winner = { $winner ->
        [red] Red wins
       *[black] Black wins
    }
protocol-screen-confirm = ✅ Confirm the protocol
protocol-screen-correct = Correct the protocol
protocol-screen-cancel-correction = Cancel the correction

# A game's result in the tournament's channel.
protocol-result = <b>{ $stage } · round { $game } · table { $table }: { $winner ->
        [red] red (civilians) win
       *[black] black (mafia) win
    }{ $end }</b>
    Don: { $don } · sheriff: { $sheriff } · mafia: { $mafia }
    { $seats }
protocol-result-corrected = <b>Result corrected · { $stage } · round { $game } · table { $table }: { $winner ->
        [red] red (civilians) win
       *[black] black (mafia) win
    }{ $end }</b>
    Don: { $don } · sheriff: { $sheriff } · mafia: { $mafia }
    { $seats }
protocol-result-seat = { $seat }. { $nickname } — { $total }
protocol-result-seat-parts = { $seat }. { $nickname } — { $total } ({ $parts })
protocol-result-part-win = win { $points }
protocol-result-part-best-move = BM { $points }
protocol-result-part-extra = extra { $points }
protocol-result-part-penalty = { $points } disq.

# How the game ended (domain.protocol.GameEnd): on the protocol screen, in the channel, in /me.
game-end = { $end ->
        [black_out] every black player out
        [parity] as many black as red players
        [missed_nights] black missed three nights in a row
        [four_players_three_nights] four players and three nights without a kill
        [awarded_defeat] { $winner ->
            [red] a defeat awarded to black
           *[black] a defeat awarded to red
        }
       *[none] not entered
    }
protocol-screen-end = How the game ended: { game-end }
protocol-screen-ended-at = End of the game: { $time }
protocol-screen-tool-end = { $winner ->
        [red] Red
       *[black] Black
    }: { game-end }
protocol-screen-tool-end-time = { $minutes ->
        [-5] −5 min
        [-1] −1 min
        [1] +1 min
       *[5] +5 min
    }
protocol-result-end = { $end ->
        [none] {""}
       *[other] { " · " }{ game-end }
    }
