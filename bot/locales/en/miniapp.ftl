# The judge's live game (Mini App, bot/web/miniapp) and its rules (domain/game_log/).

game-log-bad-action = Unknown action: reload the page.
game-log-bad-seat = There is no seat { $seat }: seats are 1 to 10.
game-log-seat-out = Player { $seat } has already left the table.
game-log-game-over = The game is over.
game-log-not-now = This cannot be done now.
game-log-not-speaker = Player { $seat } is not speaking: only the speaker nominates.
game-log-nominated-already = Player { $seat } has already nominated today.
game-log-candidate-already = Player { $seat } is already nominated.
game-log-no-withdrawal = The regulation does not allow taking a nomination back.
game-log-nothing-to-withdraw = Player { $seat } nominated nobody.
game-log-bad-votes = Enter the votes for every candidate.
game-log-votes-total = Votes: { $total }, players at the table: { $voters }: a player who does not vote votes for the last nominee.
game-log-checked-already = This check is done.
game-log-extra-at-end = Extra points come after the end of the game.
game-log-finish-needs-comment = Give the reason the game ends otherwise.
game-log-nobody-left = Nobody is left at the table.

miniapp-title = Game · round { $game } · table { $table }
miniapp-open = 🎲 Run the game
miniapp-unauthorized = Open the game from Telegram: the signature is not confirmed.
miniapp-not-yours = Only the table's judge or the chief judge runs this game.
miniapp-loading = Loading…
miniapp-undo = ↶ Undo
miniapp-next = Next ▶
miniapp-start-timer = ▶ Timer
miniapp-pause-timer = ⏸ Pause
miniapp-reset-timer = ⟲ Restart
miniapp-roles = Roles
miniapp-roles-hint = Tap a role, then a seat. The rest are civilians.
miniapp-roles-rest = The rest are civilians
miniapp-roles-done = Roles dealt
miniapp-role-civilian = Civilian
miniapp-role-sheriff = Sheriff
miniapp-role-mafia = Mafia
miniapp-role-don = Don
miniapp-role-none = ?
miniapp-foul = Foul
miniapp-fouls-mode = Fouls: tap a seat
miniapp-disqualify = Disqualify
miniapp-silenced = no speech
miniapp-out-voted = voted out
miniapp-out-killed = killed
miniapp-out-fouls = removed (4 fouls)
miniapp-out-disqualified = disqualified
miniapp-phase-introduction = Introduction night: the don, the mafia, the sheriff
miniapp-phase-speeches = Day { $day }: player { $seat } speaks
miniapp-phase-silent = Day { $day }: player { $seat } lost his speech (3 fouls) but may nominate
miniapp-phase-voting = Day { $day }: the vote
miniapp-phase-split_speeches = Split vote: player { $seat } speaks
miniapp-phase-revote = The second vote
miniapp-phase-all_or_nobody = Who is for all the tied players leaving the table?
miniapp-phase-last_words = Last word: player { $seat }
miniapp-phase-shot = Night { $night }: the mafia's shot
miniapp-phase-don_check = Night { $night }: the don's check
miniapp-phase-sheriff_check = Night { $night }: the sheriff's check
miniapp-phase-best_move = Player { $seat }'s best move: whom does he name black?
miniapp-phase-morning_last_word = Morning: player { $seat }'s last word
miniapp-phase-end_detected = Is the game over?
miniapp-phase-finished = The game is over: extra points and confirmation
miniapp-nominate = Nominate
miniapp-nominate-hint = Tap a seat for player { $seat } to nominate it.
miniapp-withdraw = Take the nomination back
miniapp-nominees = Nominated: { $seats }
miniapp-no-vote = No vote today (a removal).
miniapp-votes-hint = Votes for each (in all { $voters }); the rest go to the last nominee.
miniapp-votes-submit = The vote is over
miniapp-all-votes = For leaving the table:
miniapp-miss = Miss
miniapp-shoot-hint = Tap the victim's seat or "Miss".
miniapp-check-hint = Tap the seat checked.
miniapp-check-skip = No check
miniapp-check-result-sheriff = the sheriff
miniapp-check-result-not-sheriff = not the sheriff
miniapp-check-result-black = black
miniapp-check-result-red = red
miniapp-best-move-hint = Tap up to three seats, then "Done".
miniapp-best-move-done = Done
miniapp-best-move-none = Named nobody
miniapp-end-black_out = All black out: red wins
miniapp-end-parity = Black equal to red: black wins
miniapp-end-missed_nights = Three black misses in a row: red wins
miniapp-end-four_players_three_nights = Four players and three nights without a kill: red wins
miniapp-end-awarded_defeat = Defeat awarded (hints from the audience)
miniapp-end-judge = The judge's decision
miniapp-end-confirm = Confirm the end
miniapp-end-other = End otherwise
miniapp-end-winner-red = Red wins
miniapp-end-winner-black = Black wins
miniapp-end-comment = Reason (for the protocol)
miniapp-extra = Extra points
miniapp-extra-hint = Tap a seat, then the points.
miniapp-summary = Summary
miniapp-confirm = ✅ Confirm the protocol
miniapp-confirmed = The protocol is confirmed: the result is in the channel.
miniapp-missing = Missing:
miniapp-timer-warning = { $seconds } s left
miniapp-log = The game so far
miniapp-part-win = win { $points }
miniapp-part-best-move = best move { $points }
miniapp-part-extra = extra { $points }
miniapp-part-penalty = penalty { $points }
miniapp-part-loss = loss { $points }

# The live game's log for the chief judge deciding a protest (handlers/game_log.py).
protest-game-log = 📜 The game's log
game-log-none = The game was not run in the Mini App: there is no log, only the protocol.
game-log-title = <b>The game's log</b> (as the judge recorded it at the table)
game-log-where-introduction = introduction night
game-log-where-day = day { $day }
game-log-where-night = night { $night }
game-log-where-end = after the game
game-log-line-roles = roles: don { $don }, sheriff { $sheriff }, mafia { $mafia }
game-log-line-nominate = { $by } nominated { $target }
game-log-line-withdraw = { $by } took his nomination back
game-log-line-votes = vote: { $votes }
game-log-line-all-or-nobody = for all of them leaving: { $votes }
game-log-line-miss = a miss
game-log-line-shot = { $seat } killed
game-log-line-check = { $by ->
        [don] the don's
       *[sheriff] the sheriff's
    } check: { $seat }
game-log-line-best-move = best move: { $seats }
game-log-line-foul = a foul to { $seat } ({ $fouls } in all)
game-log-line-disqualify = { $seat } disqualified
game-log-line-finish = end of the game: { $winner ->
        [red] red
       *[black] black
    } wins { $end ->
        [black_out] (all black out)
        [parity] (black equal to red)
        [missed_nights] (three misses in a row)
        [four_players_three_nights] (four players, three nights without a kill)
        [awarded_defeat] (defeat awarded)
       *[none] {""}
    }
game-log-line-extra = extra points to { $seat }: { $points }
miniapp-extra-comment = What the extra points are for (comment)

# Offline first, fewer taps, who voted for whom, technical fouls (issue 29).
game-log-bad-ballots = Mark every player's vote at the table: who voted for whom.
game-log-line-technical-foul = a technical foul to { $seat } ({ $fouls } in all)
miniapp-offline = No connection: the taps are kept on the phone and go to the server when the connection is back.
miniapp-pending = Not saved on the server: { $count }
miniapp-saved = All saved
miniapp-conflict = The game was changed on another device: your unsaved taps ({ $count }) are not applied.
miniapp-refused-queued = The server refused a tap, the unsaved taps ({ $count }) are not applied: { $reason }
miniapp-conflict-discard = Show the server's game (drop { $count })
miniapp-foul-tap = +foul
miniapp-technical = Tech. foul
miniapp-technical-mode = Technical fouls: tap a seat
miniapp-technical-marks = tech { $count }
miniapp-ballots-hint = Who votes for { $seat }? Mark the seats, then "Next".
miniapp-ballots-next = Next ▶
miniapp-waiting-server = The summary and the confirmation come once the taps are saved on the server.
