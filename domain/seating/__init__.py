"""Seating of a stage, one module per concern (docs/seating.md tells the whole story):
- `request`: the request, the seating and its hard constraints (no numpy);
- `generator`: `generate_seating`;
- `bounds`: lower bounds no seating can beat (max_meet, S2, tables and judges);
- `quality`: the report the organizer's preview shows beside the bounds;
- `codes` and `orbits`: designs (codes over GF(T), cyclic orbits), `structured` picks one;
- `swap_search`: the tabu search over swaps deciding who plays with whom, on a
  `table_problem`, its games at tables and with judges counted by `visits`;
- `table_numbers`: which group sits at which table (and so under which judge);
- `judges`: the judges' rotation over the tables; `judge_schedule`: the judges' schedule
  chosen with the seating;
- `seats`: seats 1–10 at each table; `assignment`: the Hungarian method both use;
- `sheets`: the stage as it is printed and exported.
Importing the package imports none of them (some load numpy).
"""
