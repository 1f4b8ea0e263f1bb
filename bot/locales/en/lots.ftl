## The lot: the chief judge's decision on a tie through every tie-breaker

lot-title = <b>Lot · { $tournament }</b>
lot-nothing = No lot is needed now: neither the cut line nor a place is shared.
lot-tie = { $where ->
        [cut] The cut line to the next stage falls in a tie on every tie-breaker ({ $count } { $count ->
        [one] contender
       *[other] contenders
    }):
       *[places] { $count } { $count ->
        [one] entry shares
       *[other] entries share
    } a place, tied on every tie-breaker:
    }
lot-seed-known = The tournament's lot key (seed) is already recorded: { $seed }. It gives the order: { $order }.
lot-choose = Draw by the lot key (seed) — everyone sees it and can check it — or enter the order of a draw held at the table?
lot-by-seed = 🎲 Draw by the lot key (seed)
lot-by-order = ✍️ Enter the order
lot-ask-order = Send the contenders' numbers from the list in the order the draw gave, separated by spaces: all { $count }, each once (for example: 2 1).
lot-order-invalid = Order not taken: it needs the numbers of the list, 1 to { $count }, each exactly once.
lot-nothing-to-decide = The lot is already drawn: there is nothing left to decide.
lot-decided = Lot drawn ({ $method ->
        [seed] by the lot key (seed) { $seed }
       *[order] order entered by the chief judge
    }). Order:
    { $order }
    The standings are recomputed and published in the channel.
lot-not-chief-judge = The tournament's chief judge draws the lot.
lot-choose-tournament = The lot of which tournament?
lot-drawn-channel = <b>{ $tournament }: lot</b>
    { $where ->
        [cut] The tie at the cut line is settled by lot
       *[places] The shared place is settled by lot
    } ({ $method ->
        [seed] by the lot key (seed) { $seed }, anyone can check it
       *[order] the chief judge entered the order of the draw
    }):
    { $order }
lot-needed = <b>A lot is needed · { $tournament }</b>
    { $where ->
        [cut] The stage is over and its cut line falls in a tie through every tie-breaker ({ $count } { $count ->
        [one] contender
       *[other] contenders
    }):
       *[places] The stage is over and { $count } { $count ->
        [one] entry shares
       *[other] entries share
    } a place, tied through every tie-breaker:
    }
    { $names }
    Draw the lot with the button below or with /lot.
lot-open = 🎲 Open the lot
# A line of the order the lot decided: the place and its player.
lot-place = { $place }. { $name }
