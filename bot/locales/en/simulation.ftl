# The offline simulation's report (harness/simulation): the terminal and report.html.

sim-started = { $regulation }: { $players } { $players ->
        [one] player
       *[other] players
    }, seed { $seed }, speed ×{ $speed }. Fake Telegram: { $telegram }; database: { $database }
sim-page-address = The tournament's page (it updates itself): { $url }
sim-live-games = Games the judge ran live in the Mini App (through its API): { $live }; the rest were entered by the protocol's buttons.
sim-page-title = { $title }: a simulated tournament
sim-winner = Winner:
sim-summary = { $players } { $players ->
        [one] player
       *[other] players
    } · { $games } { $games ->
        [one] game
       *[other] games
    } · { $posts } { $posts ->
        [one] post
       *[other] posts
    } in the channel, pictures: { $pictures } · run time: { $seconds } s · errors: { $errors }
sim-final-table = Final standings
sim-final-table-of = Final standings: { $title }
sim-channel-by-stage = The tournament's channel by stage
sim-channel-count = The tournament's channel: { $posts } { $posts ->
        [one] post
       *[other] posts
    }
sim-registration = Registration
sim-pinned = [pinned] { $text }
sim-picture = [picture { $file }] { $text }
sim-figures = Figures of the run
