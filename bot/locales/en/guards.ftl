# A press the bot cannot take: a button of an old screen, or data it never sent.
button-out-of-date = This button is out of date: the screen has changed. Please open it again.
# Long work started by a press: shown at once, the result follows.
work-in-progress = ⏳ Working on it… The result follows in the next message.
