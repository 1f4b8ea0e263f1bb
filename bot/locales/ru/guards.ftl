# A press the bot cannot take: a button of an old screen, or data it never sent.
button-out-of-date = Эта кнопка устарела: экран уже изменился. Откройте его заново.
# Long work started by a press: shown at once, the result follows.
work-in-progress = ⏳ Готовлю… Результат придёт следующим сообщением.
