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
