# Сообщения доставки (bot/delivery): организатор узнаёт одной сводкой на рассылку, кому бот не смог написать, и сразу — о сообщении, которое не отправить.

delivery-digest = Турнир «{ $tournament }»: рассылка дошла не до всех.{ $unreachable_count ->
        [0] {""}
       *[other] {" "}Не получают сообщения бота (заблокировали бота или ещё не нажали /start): { $unreachable }. Попросите их открыть бота и нажать /start.
    }{ $uncertain_count ->
        [0] {""}
       *[other] {" "}Неизвестно, дошло ли сообщение (ответ Telegram потерялся): { $uncertain }. Если оно важно, напомните сами.
    }{ $channel_unreachable ->
        [0] {""}
       *[other] {" "}Бот не может публиковать в канале турнира: сделайте бота администратором канала с правом публикации сообщений.
    }{ $channel_uncertain ->
        [0] {""}
       *[other] {" "}Неизвестно, появился ли пост в канале турнира (ответ Telegram потерялся, а второй раз бот его не публикует, чтобы не было дубля): проверьте канал.
    }

# A message the bot could not send at all (it could not be put together, or Telegram refused it).
delivery-failed = Турнир «{ $tournament }»: сообщение { $channel ->
        [yes] в канал турнира
       *[no] для { $name }
    } не отправлено и повторно отправлено не будет. Причина: { $reason }. Сообщите разработчикам и передайте это сами.

# Admins told when the bot is unhealthy (bot/health_watch.py): one message when it starts, one when it ends.
health-errors = ⚠️ Бот: ошибки при обработке сообщений, за последние минуты — { $count } (минут: { $minutes }). Подробности: journalctl -u mafiatour.
health-errors-recovered = ✅ Бот: ошибок при обработке сообщений больше нет.
health-outbox = ⚠️ Бот: очередь сообщений стоит, сообщение ждёт отправки (минут: { $minutes }). Игроки не получают рассадку и напоминания.
health-outbox-recovered = ✅ Бот: очередь сообщений снова отправляется.
health-backup = ⚠️ Бот: последняя резервная копия устарела (часов: { $hours }): ночная копия не сделана. Проверьте: systemctl status mafiatour-backup.
health-backup-recovered = ✅ Бот: резервная копия снова свежая.
health-lease = ⚠️ Бот: другой процесс забрал опрос Telegram у этого; запустите один процесс опроса или WEBHOOK_URL для нескольких.
health-lease-recovered = ✅ Бот: этот процесс снова опрашивает Telegram один.
