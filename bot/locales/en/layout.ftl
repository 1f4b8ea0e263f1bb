# How the screens lay their pieces out (domain/layout.py): no words of their own, so both
# languages hold the same lines. Plain text is escaped by the renderer.
layout-text = { $text }
layout-lines = { $lines }
layout-numbered = { $number }. { $text }
layout-bold = <b>{ $text }</b>
