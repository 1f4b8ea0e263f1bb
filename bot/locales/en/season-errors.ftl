# Refusals of the season's use cases (#28): merges, series, points tables, clubs.
season-merge-same = This is one and the same player: nothing to merge.
season-merge-overlap = Cannot merge: both accounts played in the same tournament ({ $tournaments }). Nothing was changed.
season-series-title = A series' name has 1 to { $max } { $max ->
        [one] character
       *[other] characters
    }.
season-points-table-invalid = The series points file cannot be used: { $problems }. The table was not changed.
season-club-name = A club's name has 1 to { $max } { $max ->
        [one] character
       *[other] characters
    }.
season-club-same = This is the same club name: nothing to join.
season-import-repeated = This file was imported already (tournament { $tournament }). Nothing was changed.
