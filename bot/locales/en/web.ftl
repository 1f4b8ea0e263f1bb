# The tournament's public web page (bot/web/pages): plain text, the templates escape it.
web-lang-name = English
web-nav-standings = Standings
web-nav-rounds = Seatings
web-nav-games = Games
web-nav-hall = Hall screen
web-standings-heading = Standings
web-stages = Stages
web-results = Results
web-stage-games = { $games ->
    [one] { $games } game per player
   *[other] { $games } games per player
}
web-stage-current = being played
web-played-games = Games played: { $games }
web-live = Updates live
web-live-lost = Connection lost: the page refreshes every 30 seconds
web-updated = Updated
web-no-rounds = No seating has been published yet.
web-no-games = No confirmed games yet.
web-round = { $stage } · round { $round }
web-table = Table { $table }
web-judge = Judge: { $judge }
web-sit-outs = Sitting out this round: { $players }
web-game = Round { $round } · table { $table }
web-game-confirmed = protocol confirmed
web-winner = { $side ->
    [red] Red (town) won
   *[black] Black (mafia) won
}
web-first-killed = First killed: seat { $seat }
web-best-move = Best move: { $seats }
web-fouls = Fouls
web-fouls-abbr = F
web-removed = { $reason ->
    [fouls] removed on the fourth foul
   *[disqualified] disqualified
}
web-provisional-game = * — provisional result
web-player-heading = Player
web-player-seats = Seatings
web-player-games = Games
web-player-team = Team: { $team }
web-not-found-title = Page not found
web-not-found-text = There is no such tournament or player, or the organizer closed the page.
web-back = Back to the tournament
web-qr-caption = Standings on your phone
web-hall-heading = { $tournament } — standings
web-footer = The tournament's page updates itself when judges confirm protocols.
web-og-description = Standings, seating and games, updated as the judges confirm their protocols.
web-hall-seating = Seating: { $round }
# The live game's page and the stream's overlay (bot/web/pages/games.py).
web-live-watch = Watch the game
web-live-now = being played
web-live-title = { $round } · table { $table } — game
web-live-stage = { $stage ->
    [not_started] The game has not started yet
    [introduction] Introduction night
    [speeches] Day { $day }: speeches
    [voting] Day { $day }: the vote
    [split_speeches] Day { $day }: the tied candidates speak
    [last_words] Day { $day }: last word
    [night] Night { $night }
    [best_move] Morning: the best move
    [morning] Morning: last word
    [ending] The game is over: the judge sums up
    [playing] The game is on
   *[finished] The game is over
}
web-live-speaker = Player { $seat } speaks
web-live-timer = Time
web-live-seat = Seat
web-live-player = Player
web-live-role = Role
web-live-out = { $exit ->
    [voted] voted out
    [killed] killed
    [fouls] removed (4 fouls)
   *[disqualified] disqualified
}
web-live-speaking = speaking
web-live-candidate = on the vote
web-live-nominations = Nominated: { $nominations }
web-live-nomination = { $by } → { $target }
web-live-no-nominations = Nobody nominated yet.
web-live-vote = The vote: { $votes }
web-live-vote-all = For all of them leaving: { $votes }
web-live-nights = Nights
web-live-night = Night { $night }: { $shot ->
    [0] a miss
   *[other] player { $shot } killed
}
web-live-checks = Checks
web-live-check = Night { $night }: the { $by ->
    [don] don
   *[sheriff] sheriff
} checked player { $seat } — { $found ->
    [yes] { $by ->
        [don] the sheriff
       *[sheriff] black
    }
    [no] { $by ->
        [don] not the sheriff
       *[sheriff] red
    }
   *[unknown] ?
}
web-live-roles-secret = The roles show when the game is over.
web-live-in-play = At the table: { $players }
web-live-not-live = The judge did not run this game in the app: its result is on the games page.
web-live-footer = The game's page updates itself after each of the judge's taps.
web-stream-title = Stream: table { $table }
web-stream-delay = Delay { $seconds } s
