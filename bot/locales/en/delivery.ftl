# Delivery notices (bot/delivery): the organizer learns whom the bot cannot reach.

delivery-player-unreachable = Tournament “{ $tournament }”: player { $name } does not get the bot's messages — they blocked the bot or never pressed /start. Ask them to open the bot and press /start.
delivery-channel-unreachable = Tournament “{ $tournament }”: the bot cannot post in the tournament's channel. Make the bot an administrator of the channel with the right to post messages.
delivery-uncertain = Tournament “{ $tournament }”: a message for { $name } was being sent when the bot restarted, and whether it arrived is unknown. The bot will not send it again; if it matters, remind them yourself.

# A message the bot could not send at all (it could not be put together, or Telegram refused it).
delivery-failed = Tournament “{ $tournament }”: a message { $channel ->
        [yes] to the tournament's channel
       *[no] for { $name }
    } was not sent and will not be retried. Reason: { $reason }. Tell the developers and pass it on yourself.
