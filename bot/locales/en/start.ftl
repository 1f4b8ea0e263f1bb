start-welcome =
    Hello, { $name }! I am <b>mafiatour</b>, the bot for sports Mafia tournaments.
    Through me players and teams register for a tournament, get their table and seat for every game, judges fill in game protocols, and the standings are published in the tournament's channel by themselves.
    To register, open the registration link from the organizer. Commands: /help
start-link-invalid = This link is invalid or has expired. Ask the organizer for a new one.
help-text =
    <b>What I can do</b>
    /start — begin and open a registration link
    /help — this help
    /lang — the bot's language (Russian or English)
    Players register by the organizer's link, get their seating for every game and follow the standings in the tournament's channel.
lang-choose = Choose the bot's language:
lang-chosen = Done: the bot speaks English.
command-start = Start
command-help = Help
command-lang = Bot language
