"""The season (issue #28): one person across tournaments, ratings, series points, clubs.
- `rating`: the Elo-type rating on three tracks (overall, red, black) over rated games;
- `series_points`: points by place scaled by a tournament's stars, the category thresholds;
- `clubs`: club names normalized, joined spellings, the club's rating;
- `views`: the read models the screens and pages render.
docs/ratings.md tells the whole story.
"""
