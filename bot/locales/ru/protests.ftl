## Протесты и журнал турнира

command-protest = Подать протест
protest-button = Протест
protest-winner = { $winner ->
        [red] победа красных (мирных)
       *[black] победа чёрных (мафии)
    }
protest-offer = <b>Тур { $game }, стол { $table }: { protest-winner }</b>
    Ваши баллы: { $points }
    Протест по результату игры можно подать до { $time }.
protest-offer-closed = <b>Тур { $game }, стол { $table }: { protest-winner }</b>
    Ваши баллы: { $points }
    Время для протеста истекло в { $time }.
protest-ask-reason = Протест по результату игры: тур { $game }, стол { $table }. Напишите, в чём суть протеста (можно приложить фото бланка с подписью). Протест принимается до { $time }.
protest-choose = Игры, по которым ещё можно подать протест:
protest-game-button = Тур { $game } · стол { $table } · до { $time }
protest-none = Сейчас нет игр, по которым можно подать протест.
protest-filed = Протест принят и передан главному судье. Решение придёт сюда.
protest-not-your-game = Протест по результату игры подаёт только игрок этой игры.
protest-no-window = По этой игре протесты не принимаются: решение судьи стола окончательно.
protest-window-closed = Время для протеста истекло в { $time }.
protest-game-annulled = Игра аннулирована главным судьёй и не учитывается в турнирной таблице: протест по ней не принимается.
protest-already-open = Ваш протест по этой игре уже рассматривается.
protest-reason-length = Суть протеста — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    } (сейчас { $length }).
protest-decision-length = Решение — от { $min } до { $max } { $max ->
        [one] символа
        [few] символов
       *[many] символов
    } (сейчас { $length }).
protest-already-decided = По этому протесту решение уже принято.
protest-to-chief = <b>Протест · { $tournament }</b>
    Тур { $game }, стол { $table }; судья стола: { $judge }
    Подал: { $nickname } (место { $seat })
    Суть: { $reason }

    Протокол: { protest-winner }
    Дон: { $don } · шериф: { $sheriff } · мафия: { $mafia }
    { $seats }
protest-reject = Отклонить
protest-accept = Удовлетворить и исправить протокол
protest-players = Игроки стола (исключение — решение судейской коллегии)
protest-photo = Фото
protest-correct = Исправить протокол
protest-players-title = Исключить игрока из турнира (решение судейской коллегии):
protest-exclude-player = { $seat }. { $nickname }
protest-ask-rejection = Напишите решение об отклонении протеста (коротко). Решение окончательное.
protest-ask-acceptance = Напишите решение об удовлетворении протеста (коротко). Затем исправьте протокол. Решение окончательное.
protest-decided-rejected = Протест отклонён. Игрок и судья стола уведомлены.
protest-decided-accepted = Протест удовлетворён. Игрок и судья стола уведомлены. Исправьте протокол:
protest-rejected = Главный судья отклонил протест по игре: тур { $game }, стол { $table } (подал { $nickname }). Решение: { $decision }
    Решение окончательное.
protest-accepted = Главный судья удовлетворил протест по игре: тур { $game }, стол { $table } (подал { $nickname }). Решение: { $decision }
    Протокол будет исправлен. Решение окончательное.
protest-corrected = Протокол игры (тур { $game }, стол { $table }) исправлен по протесту (подал { $nickname }). Решение: { $decision }

audit-title = <b>Журнал турнира «{ $tournament }»</b>
audit-window = { $minutes ->
        [0] Протесты не принимаются.
       *[other] Протест — в течение { $minutes } мин после подтверждения протокола.
    }
audit-empty = Записей пока нет.
audit-entry = { $time } · { $kind ->
        [protest_filed] протест подан
        [protest_rejected] протест отклонён
        [protest_accepted] протест удовлетворён
        [protocol_corrected] протокол исправлен
        [protests_switched] настройка протестов
        [lot_drawn] жребий
        [game_annulled] игра аннулирована
       *[other] { $kind }
    } · { $who }: { $text }
audit-excluded = Исключён из турнира: { $nickname }. Причина: { $reason }
audit-switch = { $state ->
        [on] Протесты: вкл
        [off] Протесты: выкл
       *[reg] Как в регламенте
    }
audit-csv = Выгрузить журнал (CSV)
audit-no-tournament = Журнал доступен организатору и главному судье турнира.
audit-choose = Журнал какого турнира показать?

## Аннулирование игры по протесту (где регламент позволяет)

protest-annul = Удовлетворить и аннулировать игру
protest-ask-annulment = Напишите решение об аннулировании игры (коротко). Игра перестанет учитываться в турнирной таблице. Решение окончательное.
protest-decided-annulled = Игра аннулирована. Игрок и судья стола уведомлены, таблица пересчитана.
protest-annulled = Главный судья удовлетворил протест по игре: тур { $game }, стол { $table } (подал { $nickname }): игра аннулирована и не учитывается в турнирной таблице. Решение: { $decision }
protest-annulled-channel = <b>Тур { $game }, стол { $table }: игра аннулирована</b> по протесту и не учитывается в турнирной таблице. Решение главного судьи: { $decision }
protest-annulment-not-allowed = Регламент турнира не позволяет аннулировать игру: удовлетворённый протест решается исправлением протокола.
# Строка итогов игры: место, игрок и его баллы.
protest-seat-points = { $seat }. { $name } — { $points }
