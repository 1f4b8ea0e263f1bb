# Standings (bot/rendering): in the channel, in a private chat, as a picture and as a CSV file.

standings-heading = <b>Standings: { $tournament }</b>
standings-stage = Stage: { $stage } · games played: { $games }
standings-no-games = No games played yet.
standings-title-players = Players
standings-title-teams = Teams
standings-abbr-place = #
standings-abbr-players = Player
standings-abbr-teams = Team
standings-abbr-points = Pts
standings-abbr-games = G
standings-abbr-wins = W
standings-abbr-extra_points = Ext
standings-abbr-wins_as_don = WD
standings-abbr-wins_as_sheriff = WS
standings-abbr-wins_as_mafia = WM
standings-abbr-wins_as_don_or_sheriff = WDS
standings-abbr-times_named_best = Best
standings-abbr-first_night_deaths = FN
standings-abbr-best_move_points = BM
standings-name-place = Place
standings-name-list = Table
standings-name-name = Nickname or team
standings-name-team = Team
standings-name-stage = Stage
standings-name-points = Points
standings-name-games = games
standings-name-wins = wins
standings-name-extra_points = extra points
standings-name-wins_as_don = wins as don
standings-name-wins_as_sheriff = wins as sheriff
standings-name-wins_as_mafia = wins as mafia
standings-name-wins_as_don_or_sheriff = wins as don or sheriff
standings-name-times_named_best = named best
standings-name-first_night_deaths = killed on the first night
standings-name-best_move_points = best move points
standings-name-provisional = Provisional
standings-name-lot = Lot
standings-name-tied = Shared place
standings-legend-item = { $abbr } — { $name }
standings-cut-line = top { $count } { $unit ->
        [teams] { $count ->
            [one] team advances
           *[other] teams advance
        }
       *[players] { $count ->
            [one] advances
           *[other] advance
        }
    }
standings-cut-needs-lot = The cut line falls in a tie through every tie-breaker: the chief judge's lot (the /lot command) decides { $places } { $places ->
        [one] place
       *[other] places
    }.
standings-mark-provisional = * — provisional: a protest window is open or a protest is pending ({ $games } { $games ->
        [one] game
       *[other] games
    }).
standings-mark-lot = ~ — place decided by lot.
standings-mark-tied = = — shared place: tied through every tie-breaker, no lot drawn yet.
standings-more = … and { $count } more — the whole table: /standings
standings-closing-round = <b>{ $tournament }: round { $round } closed</b> ({ $stage })
standings-closing-stage = <b>{ $tournament }: stage “{ $stage }” closed</b>
standings-results-heading = 🏆 <b>{ $tournament }: the tournament is finished</b>
standings-results-winner = { $count ->
        [one] Winner: <b>{ $names }</b>
       *[other] Winners: <b>{ $names }</b>
    }
standings-results-team-winner = { $count ->
        [one] Winning team: <b>{ $names }</b>
       *[other] Winning teams: <b>{ $names }</b>
    }
standings-results-table = <b>{ $tournament }: final standings</b>
standings-podium-players = Podium
standings-podium-teams = Team podium
standings-podium-individual = Individual standings
standings-podium-row = { $medal } { $name } — { $points }
# Nominations by role: the best player of a role by the points earned playing it.
standings-awards = Nominations
standings-award-row = { $role ->
        [sheriff] Best sheriff
        [don] Best don
        [mafia] Best mafia
       *[civilian] Best civilian
    }: { $names } — { $points } in { $games } { $games ->
        [one] game
       *[other] games
    }
standings-yes = yes

# /me: a player's games and points by part.
me-heading = <b>{ $nickname }</b> — { $tournament }
me-summary = Place: { $place } · points: { $points } · games: { $games } · wins: { $wins }
me-no-games = No games played yet.
me-role = { $role ->
        [civilian] civilian
        [sheriff] sheriff
        [mafia] mafia
       *[don] don
    }
me-won = +
me-lost = −
me-abbr-round = Rnd
me-abbr-table = T
me-abbr-seat = S
me-abbr-role = Role
me-abbr-result = ±
me-abbr-win = Win
me-abbr-best_move = BM
me-abbr-extra = Ext
me-abbr-penalty = Pen
me-abbr-total = Total
me-name-table = table
me-name-seat = seat at the table
me-name-result = win (+) or loss (−)
me-name-win = points for the win
me-name-best_move = best move
me-name-extra = extra points
me-name-penalty = penalty (disqualification)
me-name-total = points for the game
me-provisional = * — provisional: a protest window is open or a protest is pending.
me-choose = Your games in which tournament?
me-not-playing = You do not play in any tournament. Register by the organizer's link.
standings-none = You take part in no tournament: the standings are in the tournament's channel.
standings-button-picture = As a picture
standings-button-csv = CSV file (comma-separated)
standings-gone = This tournament no longer exists.
standings-choose = The standings of which tournament?
command-standings = Standings
command-me = My games and points

## An excluded player in the table
standings-name-excluded = Excluded
standings-mark-excluded = × — the player was excluded from the tournament (the panel of judges' decision): his games' points stay, he takes no place in a cut.

## /me: an excluded player and a special end of a game
me-excluded = × You were excluded from the tournament (the panel of judges' decision): your games keep their points, but you take no place in a cut.
me-game-end = Round { $round }, table { $table }: { game-end }
standings-web-link = Standings, seatings and games on the web: { $url }
