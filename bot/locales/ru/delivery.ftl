# Сообщения доставки (bot/delivery): организатор узнаёт, кому бот не может написать.

delivery-player-unreachable = Турнир «{ $tournament }»: игрок { $name } не получает сообщения бота — он заблокировал бота или ещё не нажал /start. Попросите его открыть бота и нажать /start.
delivery-channel-unreachable = Турнир «{ $tournament }»: бот не может публиковать в канале турнира. Сделайте бота администратором канала с правом публикации сообщений.
delivery-uncertain = Турнир «{ $tournament }»: сообщение для { $name } отправлялось в момент перезапуска бота, и дошло ли оно — неизвестно. Повторно бот его не отправит; если оно важно, напомните сами.

# A message the bot could not send at all (it could not be put together, or Telegram refused it).
delivery-failed = Турнир «{ $tournament }»: сообщение { $channel ->
        [yes] в канал турнира
       *[no] для { $name }
    } не отправлено и повторно отправлено не будет. Причина: { $reason }. Сообщите разработчикам и передайте это сами.
