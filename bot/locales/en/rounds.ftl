# Seating and rounds (handlers/rounds.py, domain/services/rounds/).

round-seat-player = Round { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }: table { $table }, seat { $seat }. Table judge: { $judge }.
round-sit-out-player = Round { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }: you sit this round out.
round-judge-list = You judge table { $table }, round { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }:
    { $players }
round-judge-list-corrected = Seating corrected. Table { $table }, round { $game }{ $time ->
        [none] {""}
       *[other] {" "}({ $time })
    }:
    { $players }
round-judge-released = Round { $game }: you no longer judge table { $table }.
round-open-protocol = Open the protocol
round-channel-post = <b>Seating · { $stage } · round { $game }{ $time ->
        [none] {""}
       *[other] {" "}· { $time }
    }{ $parts ->
        [1] {""}
       *[other] {" "}· part { $part } of { $parts }
    }</b>

    { $tables }
# A table's line: the seat and its player (the channel, the judge's list, the organizer's screen).
table-seat = { $seat }. { $name }
# A table in any listing (the organizer's screen, the channel): its heading with the judge (none: left out) over its seats.
table-listing = <b>Table { $table }</b>
    { $players }
table-listing-judged = <b>Table { $table }</b> · judge { $judge }
    { $players }
round-channel-sit-outs = Sitting out: { $players }
round-channel-correction = <b>Seating corrected, round { $game }</b>
    { $changes }
round-channel-moved = { $name }: { $table }.{ $seat }
round-channel-moved-out = { $name }: —
round-correction-player = Seating corrected, round { $game }: you now sit at table { $table }, seat { $seat }.
round-correction-sit-out = Seating corrected, round { $game }: you sit this round out.

# Refusals.
stage-not-started = The stage has not started: start it on the tournament card.
stage-not-seated = The stage has no seating yet.
stage-cut-needs-lot = Who advances is not settled: { $places ->
        [one] { $places } place is shared
       *[other] { $places } places are shared
    } by players tied on every tie-breaker; a lot is needed: the chief judge draws it with /lot.
stage-too-few-players = { $count ->
        [one] { $count } player
       *[other] { $count } players
    }: { $tables ->
        [one] { $tables } table needs
       *[other] { $tables } tables need
    } 10 players each.
stage-seating-impossible = No seating is possible: { $reason }
stage-all-published = Every round of the stage is published.
stage-changed-meanwhile = The seating changed while it was being made: try again.
round-unknown = There is no round { $round }: the stage has { $rounds } { $rounds ->
        [one] round
       *[other] rounds
    }.
round-edit-no-seat = There is no seat { $table }.{ $seat }.
round-edit-same-player = That is the same player.
round-edit-not-in-round = { $player } does not play this stage.
round-edit-both-sit-out = Both players sit this round out: nothing to swap.
round-edit-teammates = That seats teammates together at table { $table }: { $first } and { $second }.
round-edit-started = The protocol at table { $table } is already started: the round's seating cannot change.
round-judge-busy = { $judge } already judges another table of this round.
round-already-published = Round { $round } is already published.
round-player-gone = Round { $round } cannot be published: players who left without a substitute sit in it ({ $players }). Reseat the unpublished rounds first.
stage-players-unchanged = The players have not changed: nobody needs reseating.

# The organizer's screens.
rounds-usage = Commands: /rounds [tournament number]; /swap [tournament] &lt;round&gt; &lt;player&gt; &lt;player&gt;; /move [tournament] &lt;round&gt; &lt;player&gt; &lt;table.seat&gt;. A player is a nickname or "table.seat". No tournament number is needed: when you run several tournaments, the bot asks which.
rounds-no-running = You run no tournament that has started: start a stage on the tournament's card (/tournaments).
rounds-choose-tournament = Which tournament's rounds?
rounds-unknown-player = There is no player "{ $player }" in this tournament.
rounds-not-seated = The current stage has no seating yet.
rounds-seat-button = Seat the stage
rounds-title = <b>{ $title }: stage { $stage }</b>
    Rounds: { $rounds }, tables per round: { $tables }. Seating key (seed): { $seed }
rounds-quality-meetings = Repeated meetings: at most { $max_meet } (no seating goes below { $max_meet_bound }), sum of repeats { $s2 } (bound { $s2_bound })
rounds-quality-no-repeats = No repeated meetings
rounds-quality-seats = Seats: { $repeated ->
        [one] { $repeated } player repeats
       *[other] { $repeated } players repeat
    } a seat number, { $unbalanced ->
        [one] { $unbalanced } sits
       *[other] { $unbalanced } sit
    } unevenly around the table
rounds-quality-games = Games per player: { $low } to { $high }
rounds-quality-teammates = Teammates at one table: { $together }
rounds-quality-worst-pair = Meet most often: { $first } and { $second }, games together: { $games }
rounds-quality-most-repeats = Most repeated meetings: { $player } ({ $repeats })
rounds-gone = ⚠ Left after the seating, without a substitute: { $players }. Rounds they sit in cannot be published until reseated; published rounds stay as they are.
rounds-reseat-button = Reseat without them (fewest changes)
rounds-changed-seats = Reseated: places changed in the unpublished rounds: { $changed }.
rounds-round-line = Round { $round }: { $published ->
        [yes] published
       *[no] not published
    }{ $missing ->
        [0] {""}
       *[other] , tables without a judge: { $missing }
    }
rounds-edit-help = Swap two players: /swap { $tournament } &lt;round&gt; &lt;player&gt; &lt;player&gt;. Move one: /move { $tournament } &lt;round&gt; &lt;player&gt; &lt;table.seat&gt;. Or by the "Swap / move" button of a round.
rounds-round-button = Round { $round }
rounds-publish-button = Publish round { $round }
rounds-regenerate-button = Reseat the unpublished rounds
rounds-back-button = ← Back to the stage
rounds-round-title = <b>Round { $round }</b> ({ $published ->
        [yes] published
       *[no] not published
    })
rounds-sit-outs = Sitting out: { $players }
rounds-judge-button = Table { $table }: { $judge } ▸
rounds-published = Round { $round } is published: players, judges and the channel get the seating.
rounds-round-page = Page { $page } of { $pages }: { $what } (tables in all: { $tables })
rounds-page-tables = tables { $first }–{ $last }
rounds-page-table = table { $table }
rounds-page-sit-outs = who sits out
rounds-page-back = ◀ { $what }
rounds-page-forward = { $what } ▶

## Seating for the whole day: tables and judges, schedules, sheets (issue 16)
seating-quality-most-at-table = Most games at one table: { $player } ({ $games }; no seating goes below { $bound })
seating-quality-most-with-judge = Most games with one judge: { $player } ({ $games }; no seating goes below { $bound })
seating-sheet-round = Round
seating-sheet-table = Table
seating-sheet-seat = Seat
seating-sheet-player = Player
seating-sheet-club = Club
seating-sheet-judge = Judge
seating-sheet-role = Role
seating-sheet-fouls = Fouls
seating-sheet-best-move = Best move
seating-sheet-extra = Extra points
seating-sheet-round-heading = Round { $round }
seating-sheet-table-heading = Table { $table }
seating-sheet-judge-heading = Judge: { $judge }
seating-sheet-winner = Winner:
seating-sheet-red = red
seating-sheet-black = black
seating-sheet-signature = Judge's signature: ____________________
seating-sheet-poster = Seating: { $title } — { $stage }
seating-sheet-sit-outs = Sit out
seating-sheet-protocol = Game protocol
seating-sheet-stage = { $stage ->
    [qualifying] qualifying
    [semifinal] semifinal
    [final] final
   *[other] { $stage }
}
seating-sheet-generated-title = Players: { $players }, tables: { $tables }
seating-sheet-generated-stage = rounds: { $rounds }
seating-sheet-date = Date: ____________
seating-sheet-points = Points
seating-sheet-day = Day { $day }
seating-sheet-nominated = Nominated
seating-sheet-votes = Votes
seating-sheet-shot = Night: shot
seating-sheet-don-check = Don's check
seating-sheet-sheriff-check = Sheriff's check
seating-sheet-best-move-line = Best move: first killed no. ______ names no. ______ no. ______ no. ______
seating-sheet-roles-hint = Role: S — sheriff, M — mafia, D — don; nothing for a civilian. A foul: a mark in a box.
seating-pdf-button = 🖨 Sheets (PDF)
seating-csv-button = 📄 Seating (CSV)
seating-schedules-button = 📬 Send players their schedules
seating-schedules-sent = The stage's schedule was sent to players: { $players }
seating-schedule = 🗓 Your schedule: { $title }, stage { $stage }
    Round · time · table/seat · judge
    { $games }
seating-schedule-corrected = ✏️ Your schedule changed: { $title }, stage { $stage }
    Round · time · table/seat · judge
    { $games }
# A line of a schedule: round · time · table/seat · judge, or sitting out.
seating-schedule-game = { $game } · { $time } · { $table }/{ $seat } · { $judge }
seating-schedule-out = { $game } · { $time } · —

## Round edits by buttons and the tournament choice for /swap and /move (issue 17)
rounds-edit-button = 🔁 Swap / move
rounds-edit-pick-table = <b>Round { $round }</b>: { $picked ->
        [yes] where does { $player } go? Pick a table (or the players sitting out).
       *[no] who moves? Pick a table (or the players sitting out).
    }
rounds-edit-pick-seat = <b>Round { $round }</b>, { $table ->
        [0] sitting out
       *[other] table { $table }
    }: { $picked ->
        [yes] where does { $player } sit? Whoever sits there takes his place.
       *[no] who moves?
    }
rounds-edit-table-button = Table { $table }
rounds-edit-sit-outs-button = Sitting out
rounds-edit-back-button = ← Back
rounds-edit-done = The round's seating is changed.
rounds-choose-edit = Change the seating of which tournament?
# A game's stream view (handlers/streams.py): a link for OBS or vMix, the roles shown.
rounds-stream-button = 📺 Stream { $table }
stream-heading = 📺 <b>Stream</b>: { $tournament }, round { $round }, table { $table }
stream-closed = There is no stream link. Open one to show the game in OBS or vMix: the stream's viewers see the roles, with the delay you choose (a minute at first).
stream-address = The link for OBS or vMix (a "Browser" source, 1920×1080, transparent background):
    { $address }
stream-no-base-url = No link can be made: the bot's WEB_BASE_URL is not set.
stream-open = The stream's viewers see the roles, with a delay of { $seconds } s. Do not publish the link: it shows the roles. A new link closes the old one.
stream-open-button = Open a stream link
stream-new-button = New link (closes the old one)
stream-delay-button = { $seconds } s
stream-revoke-button = Close the link
stream-back-button = ← To round { $round }
stream-opened = The stream link is open.
stream-revoked = The link is closed: the stream no longer opens.
stream-delay-set = Stream delay: { $seconds } s.
stream-bad-delay = The delay is 0 to { $max } { $max ->
        [one] second
       *[other] seconds
    }.
stream-public-page = The game's page for spectators (roles hidden until the end): { $address }
