# Delivery notices (bot/delivery): the organizer learns in one digest per broadcast whom the bot could not reach.

delivery-digest = Tournament “{ $tournament }”: the broadcast did not reach everyone.{ $unreachable_count ->
        [0] {""}
       *[other] {" "}Not getting the bot's messages (they blocked the bot or never pressed /start): { $unreachable }. Ask them to open the bot and press /start.
    }{ $uncertain_count ->
        [0] {""}
       *[other] {" "}Whether the message arrived is unknown (Telegram's answer was lost): { $uncertain }. If it matters, remind them yourself.
    }{ $channel_unreachable ->
        [0] {""}
       *[other] {" "}The bot cannot post in the tournament's channel: make the bot an administrator of the channel with the right to post messages.
    }{ $channel_uncertain ->
        [0] {""}
       *[other] {" "}Whether the post appeared in the tournament's channel is unknown (Telegram's answer was lost, and the bot does not post it again, to avoid a duplicate): check the channel.
    }

# A message the bot could not send at all (it could not be put together, or Telegram refused it).
delivery-failed = Tournament “{ $tournament }”: a message { $channel ->
        [yes] to the tournament's channel
       *[no] for { $name }
    } was not sent and will not be retried. Reason: { $reason }. Tell the developers and pass it on yourself.

# Admins told when the bot is unhealthy (bot/health_watch.py): one message when it starts, one when it ends.
health-errors = ⚠️ Bot: errors handling messages in the last minutes: { $count } (minutes: { $minutes }). Details: journalctl -u mafiatour.
health-errors-recovered = ✅ Bot: no more errors handling messages.
health-outbox = ⚠️ Bot: the outbox is stuck, a message has waited (minutes: { $minutes }). Players get no seats or reminders.
health-outbox-recovered = ✅ Bot: the outbox sends again.
health-backup = ⚠️ Bot: the newest backup is too old (hours: { $hours }): the nightly backup did not run. Check: systemctl status mafiatour-backup.
health-backup-recovered = ✅ Bot: the backup is fresh again.
health-lease = ⚠️ Bot: another process took polling Telegram over from this one; run one polling process, or WEBHOOK_URL for several.
health-lease-recovered = ✅ Bot: this process polls Telegram alone again.
