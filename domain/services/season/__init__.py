"""The season's use cases (#28), one module a job, one service a module: `profiles`
(`ProfileService`: a person's profile, finding a person, hiding one's profile, a person's
rating), `merging` (`MergeService`: two accounts of one person), `series` (`SeriesService`:
series, attaching and rating tournaments, points tables, the series' view), `clubs`
(`ClubService`: a club's page, joining spellings), `history` (`SeriesHistoryService`: files
imported into a series, the series exported), `places` (a tournament's places, kept per
standings version). `domain/services/catalog.py` builds them once. Keeping the ratings current
is `domain/services/rating_sync.py`, which the protocol, annulment and import use cases call
in their own transactions."""
