# The season: a player's profile, ratings, series of tournaments, merging accounts, clubs (handlers/season*.py, the series and players' web pages).

command-profile = A player's profile
command-rating = The series' rating
command-series = Series of tournaments
command-merge = Merge two accounts
command-joinclubs = Join a club's spellings
help-season =
    <b>The season</b>
    /profile — your profile: tournaments, roles, the rating and its history; <code>/profile nickname</code> — another player's.
    /rating — a series' rating table (players and clubs), your line marked.
help-season-organizer =
    <b>The season (organizers)</b>
    The tournament's card: the series it belongs to, and whether it is rated.
    /merge nickname — merge two accounts of one player; /joinclubs Club = other spelling — join a club's spellings.
help-season-admin =
    <b>The season (admins)</b>
    /series — the series of tournaments; <code>/series Title</code> — create one.

rating-stars-line = Rating: <b>{ $rating }</b> { $stars }
rating-none-line = Rating: none yet (no rated game so far)

profile-none = No profile yet: you have not played in any tournament.
profile-search-hint = Another player's profile: <code>/profile nickname</code>, e.g. <code>/profile Raven</code>.
profile-found = Players matching "{ $query }":
profile-not-found = No player's nickname matches "{ $query }".
profile-gone = This profile is gone: the account was merged into another.
profile-hidden = The player has hidden his profile.
profile-hidden-own = Your profile is hidden: others see only your nickname.
profile-rating = Rating: <b>{ $overall }</b> · as red { $red } · as black { $black }
profile-rank = Place in the overall rating: { $rank }
profile-no-rating = No rating yet: no game in a rated tournament.
profile-games = Games: { $games } · points per game: { $per_game }
profile-figures = Best moves: { $best_moves } · killed the first night: { $first_night } · fouls: { $fouls } · disqualifications: { $disqualifications }
profile-roles-title = <b>Roles</b>
profile-role-line = { $role }: { $games } { $games ->
        [one] game
       *[other] games
    }, { $wins } { $wins ->
        [one] win
       *[other] wins
    } ({ $rate }%)
profile-tournaments-title = <b>Tournaments</b>
profile-tournament-line = { $title }{ $date } — place { $place }, points { $points }, { $games } { $games ->
        [one] game
       *[other] games
    }
profile-more-tournaments = …and { $count } more tournaments (all of them on the player's page)
profile-button-picture = Rating history as a picture
profile-button-page = The player's web page
profile-button-hide = Hide my profile
profile-button-show = Show my profile
profile-hidden-now = Your profile is hidden: tables show only your nickname, the rest only you see.
profile-shown-now = Your profile is shown to everyone.
profile-history-title = Rating: { $nickname }
profile-history-axis = games
profile-history-none = No rating history yet: no rated game.

rating-no-series = There are no series of tournaments yet: a series' rating comes once an admin creates a series.
rating-choose = Which series' rating?
rating-heading = <b>The rating of the series "{ $title }"</b>
rating-empty = No player of the series has played a rated game yet.
rating-mine = Your place: { $place } · rating { $rating } · series points { $points }
rating-not-in = You are not in this series yet.
rating-more = …and { $count } more players
rating-abbr-place = #
rating-abbr-player = Player
rating-abbr-rating = Rtg
rating-abbr-points = Pts
rating-abbr-games = G
rating-legend = Rtg — rating · Pts — series points for places in tournaments · G — games · ▶ — you
rating-button-picture = As a picture
rating-button-clubs = Clubs
rating-button-page = The series' web page
rating-clubs-heading = <b>The clubs of the series "{ $title }"</b>
rating-clubs-empty = No clubs in the series yet.
rating-club-line = { $place }. { $club } — { $rating } ({ $members } { $members ->
        [one] player
       *[other] players
    })
rating-gone = This series is gone.
rating-picture-title = Rating: { $title }

card-season = Series: { $series } · { $rated ->
        [true] rated
       *[false] not rated
    } · category: { $category }
card-season-no-series = none
card-category-none = not yet
card-button-series = The tournament's series
card-button-rated-on = Make it rated
card-button-rated-off = Make it not rated
card-series-choose = Which series does "{ $title }" belong to?
card-series-none = No series
card-series-no-series = There are no series yet: the bot's admin creates them (/series).
card-series-attached = The tournament is now in the series "{ $series }".
card-series-detached = The tournament is no longer in a series.
card-rated-now-on = The tournament is rated: its games count in the rating.
card-rated-now-off = The tournament is not rated: its games do not count in the rating.

series-none = No series of tournaments yet. Create one: <code>/series Title</code>
series-list = <b>Series of tournaments</b>
    A new series: <code>/series Title</code>
series-created = The series "{ $title }" is created.
series-screen =
    <b>The series "{ $title }"</b>
    Tournaments: { $tournaments } · rated players: { $players }
series-button-points = Upload the points table (a file)
series-button-page = The series' web page
series-send-points = Send the series' points table as a JSON file (a sample: domain/presets/series_points/fiim.json). /cancel to stop.
series-points-saved = The points table of the series "{ $title }" is saved.
series-points-not-file = A JSON file with the points table is needed (as a document). /cancel to stop.
series-points-too-big = The file is too large for a points table (over { $limit } KB).
series-points-not-text = The file is not UTF-8 text: a points table in JSON is needed.
series-title-too-long = A series' title is at most { $limit } { $limit ->
        [one] character
       *[other] characters
    }.
series-cancelled = The points table upload is cancelled.

merge-usage = Merge two accounts of one player: <code>/merge nickname</code> lists the players with that nickname, and you pick both accounts by buttons.
merge-not-found = No player's nickname matches "{ $query }".
merge-choose-keep = Merging accounts. Which account <b>stays</b>?
merge-choose-merge = Stays: <b>{ $keep }</b>. Which account joins it?
merge-preview =
    <b>Merging accounts</b>

    <b>Stays</b>
    { $keep }

    <b>Joins it</b>
    { $merge }
merge-overlap = They cannot be merged: both accounts played in the same tournament ({ $titles }).
merge-confirm = ✅ Merge
merge-cancel = Cancel
merge-done = Done: the account "{ $merge }" joined "{ $keep }", the ratings are recomputed.
merge-cancelled = The merge is cancelled.
merge-stale = This choice is out of date: start again with <code>/merge nickname</code>.
merge-side = { $nickname } ({ $club }) · tournaments: { $tournaments } · games: { $games } · rating: { $rating }

clubs-usage = Join the spellings of one club: <code>/joinclubs Club = other spelling</code>.
clubs-joined = Done: "{ $alias }" now counts as the club "{ $club }".

web-season-series = The series "{ $title }"
web-season-calendar = Calendar
web-season-upcoming = Upcoming
web-season-running = Running
web-season-finished = Finished
web-season-register = Register
web-season-no-events = No tournaments.
web-season-players = Players' rating
web-season-clubs = Clubs' rating
web-season-no-players = No rated game in the series yet.
web-season-no-clubs = No clubs yet.
web-season-col-place = #
web-season-col-player = Player
web-season-col-club = Club
web-season-col-rating = Rating
web-season-col-red = Red
web-season-col-black = Black
web-season-col-games = Games
web-season-col-tournaments = Tournaments
web-season-col-points = Series points
web-season-col-points-short = Pts
web-season-col-members = Players
web-season-col-title = Tournament
web-season-col-date = Date
web-season-col-role = Role
web-season-col-wins = Wins
web-season-col-rate = Win rate
web-season-player-rating = Rating { $overall } · as red { $red } · as black { $black }
web-season-player-rank = Place in the overall rating: { $rank }
web-season-player-no-rating = No rating yet.
web-season-player-hidden = The player has hidden his profile.
web-season-chart = Rating history
web-season-chart-desc = The rating after each rated game, from { $start } to { $last }.
web-season-chart-none = No rated game yet.
web-season-player-tournaments = Tournaments
web-season-player-roles = Roles
web-season-player-figures = Games: { $games } · points per game: { $per_game } · best moves: { $best_moves } · killed the first night: { $first_night } · fouls: { $fouls } · disqualifications: { $disqualifications }
web-season-club = The club "{ $club }"
web-season-club-rating = The club's rating: { $rating }
web-season-club-aliases = Other spellings: { $aliases }
web-season-club-members = The club's players
web-season-of-series = Series: { $title }
web-season-stars = Category: { $stars }
web-season-title = The season
