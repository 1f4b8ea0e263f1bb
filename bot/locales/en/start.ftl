start-welcome =
    Hello, { $name }! I am <b>mafiatour</b>, the bot for sports Mafia tournaments.
    Through me players and teams register for a tournament, get their table and seat for every game, judges fill in game protocols, and the standings are published in the tournament's channel by themselves.
    To register, open the registration link from the organizer. Commands: /help
start-link-invalid = This link is invalid or has expired. Ask the organizer for a new one.
help-title = <b>What I can do</b> — for your roles in tournaments:
help-player =
    <b>Player</b>
    /standings — the standings; /me — your games and points by part.
    /protest — a protest against a game's result while its protest window is open.
    The bot sends your seating for every round (table, seat, judge) and reminds you when it starts.
help-table_judge =
    <b>Table judge</b>
    /protocol — your tables' protocols (or the "Open the protocol" button in the seating message).
    <b>Protocol cheat-sheet</b> — one message, all buttons, the screen moves on by itself:
    • Roles: tap the don's seat, then the sheriff's, then the two mafia: the rest become civilians, the fouls come up.
    • Fouls: a tap on a seat is a foul, the 4th removes; "− foul" takes one back, "Disqualification" is a disqualifying foul.
    • FK: the night ("Night 1 (first shooting)" is preselected) and the first victim's seat, or "Misses — nobody killed".
    • BM: the three seats the first victim named (or "Named nobody").
    • Extra: a seat, then how many points it gets.
    • "Red win" or "Black win" opens the summary with its "✅ Confirm the protocol" button.
    The bot refuses anything impossible and says why. Only the chief judge corrects a confirmed protocol.
help-chief_judge =
    <b>Chief judge</b>
    /protocol — the protocols of every table's recent rounds; a confirmed one can be corrected.
    /lot — the lot when the cut line or a place falls in a tie through every tie-breaker.
    /audit — the tournament's log: protests, corrections, exclusions.
    /tournaments — the tournament's card: check-in, no-shows, substitutes, exclusions.
    Players' protests come to you: reject, or accept and correct the protocol.
help-organizer =
    <b>Organizer</b>
    /new — create a tournament; /tournaments — your tournaments and their cards.
    The card has registration, players and teams, judge invitations, the timetable, exports.
    /rounds — the stage's seating, table judges, publishing rounds; swap or move players by buttons in a round, or /swap, /move.
    /audit — the tournament's log. A lot for a tie is drawn by the chief judge (/lot).
    The tournament's channel: make the bot an administrator of it with the right to post.
help-admin =
    <b>Admin</b>
    /organizer — a one-time link that makes someone an organizer.
    /new and /tournaments — as an organizer, and you see every tournament.
help-newcomer =
    <b>How to start</b>
    A player: open the organizer's registration link.
    A judge: open the organizer's invitation link.
    An organizer: ask the bot's admin for an /organizer link and open it. Your Telegram id: <code>{ $id }</code>.
help-common = /lang — the bot's language · /help — this help
lang-choose = Choose the bot's language:
lang-chosen = Done: the bot speaks English.
command-start = Start
command-help = Help
command-lang = Bot language
command-protocol = My tables' protocols
command-rounds = Rounds and seating
command-lot = The lot
command-audit = The tournament's log
command-organizer = A link for an organizer
wizard-not-organizer = Tournaments are created by organizers. Ask the bot's admin for an /organizer link and open it; he will need your Telegram id: <code>{ $id }</code>.
