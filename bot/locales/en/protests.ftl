## Protests and the tournament's audit log

command-protest = File a protest
protest-button = Protest
protest-winner = { $winner ->
        [red] red (civilians) win
       *[black] black (mafia) win
    }
protest-offer = <b>Round { $game }, table { $table }: { protest-winner }</b>
    Your points: { $points }
    You may protest the result until { $time }.
protest-offer-closed = <b>Round { $game }, table { $table }: { protest-winner }</b>
    Your points: { $points }
    The protest window closed at { $time }.
protest-ask-reason = Protest against the result of the game in round { $game }, table { $table }. Write what the protest is about (a photo of the sheet with a caption is welcome). Protests are taken until { $time }.
protest-choose = Games you may still protest:
protest-game-button = Round { $game } · table { $table } · until { $time }
protest-none = There is no game you may protest now.
protest-filed = Your protest is filed and passed to the chief judge. The decision will come here.
protest-not-your-game = Only a player of this game may protest its result.
protest-no-window = This game takes no protests: the table judge's decision is final.
protest-window-closed = The protest window closed at { $time }.
protest-game-annulled = The chief judge annulled this game and it does not count in the standings: it takes no protest.
protest-already-open = Your protest on this game is already being considered.
protest-reason-length = The protest takes { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    } (now { $length }).
protest-decision-length = The decision takes { $min } to { $max } { $max ->
        [one] character
       *[other] characters
    } (now { $length }).
protest-already-decided = This protest has already been decided.
protest-to-chief = <b>Protest · { $tournament }</b>
    Round { $game }, table { $table }; table judge: { $judge }
    Filed by: { $nickname } (seat { $seat })
    Reason: { $reason }

    Protocol: { protest-winner }
    Don: { $don } · sheriff: { $sheriff } · mafia: { $mafia }
    { $seats }
protest-reject = Reject
protest-accept = Accept and correct the protocol
protest-players = Players of the table (exclusion by the panel of judges)
protest-photo = Photo
protest-correct = Correct the protocol
protest-players-title = Exclude a player from the tournament (the panel of judges' decision):
protest-exclude-player = { $seat }. { $nickname }
protest-ask-rejection = Write the decision rejecting the protest (briefly). The decision is final.
protest-ask-acceptance = Write the decision accepting the protest (briefly), then correct the protocol. The decision is final.
protest-decided-rejected = Protest rejected. The player and the table judge are told.
protest-decided-accepted = Protest accepted. The player and the table judge are told. Correct the protocol:
protest-rejected = The chief judge rejected the protest on round { $game }, table { $table } (filed by { $nickname }). Decision: { $decision }
    The decision is final.
protest-accepted = The chief judge accepted the protest on round { $game }, table { $table } (filed by { $nickname }). Decision: { $decision }
    The protocol will be corrected. The decision is final.
protest-corrected = The protocol of round { $game }, table { $table } was corrected after the protest (filed by { $nickname }). Decision: { $decision }

audit-title = <b>Audit log of «{ $tournament }»</b>
audit-window = { $minutes ->
        [0] Protests are off.
       *[other] Protests within { $minutes } min after the protocol is confirmed.
    }
audit-empty = No entries yet.
audit-entry = { $time } · { $kind ->
        [protest_filed] protest filed
        [protest_rejected] protest rejected
        [protest_accepted] protest accepted
        [protocol_corrected] protocol corrected
        [protests_switched] protest setting
        [lot_drawn] lot drawn
        [game_annulled] game annulled
       *[other] { $kind }
    } · { $who }: { $text }
audit-excluded = Excluded from the tournament: { $nickname }. Reason: { $reason }
audit-switch = { $state ->
        [on] Protests: on
        [off] Protests: off
       *[reg] As the regulation says
    }
audit-csv = Export the log (CSV)
audit-no-tournament = The audit log is for the tournament's organizer and chief judge.
audit-choose = Which tournament's log?

## Annulling the game on a protest (where the regulation allows)

protest-annul = Accept and annul the game
protest-ask-annulment = Write the decision to annul the game (briefly). The game will no longer count in the standings. The decision is final.
protest-decided-annulled = The game is annulled. The player and the table judge are told, the standings recomputed.
protest-annulled = The chief judge accepted the protest on round { $game }, table { $table } (filed by { $nickname }): the game is annulled and does not count in the standings. Decision: { $decision }
protest-annulled-channel = <b>Round { $game }, table { $table }: the game is annulled</b> on a protest and does not count in the standings. The chief judge's decision: { $decision }
protest-annulment-not-allowed = The tournament's regulation does not allow annulling a game: an accepted protest is settled by correcting the protocol.
# A line of a game's result: the seat, its player and his points.
protest-seat-points = { $seat }. { $name } — { $points }
