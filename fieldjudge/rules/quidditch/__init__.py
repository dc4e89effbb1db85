"""Forum quidditch (RULES.md "Quidditch", rulebook file 000): pure rules, no I/O.

A screen builds a ``roster.MatchSetup``, starts with ``state.new_match``, offers
``declarations.valid_actions`` / ``valid_targets`` per player, collects ``Declaration``
objects, calls ``resolve.resolve_round`` with ``resolve.make_dice``, and shows
``post.render_post``.
"""
