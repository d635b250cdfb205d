"""An independent transition-level SMT (z3) encoding of a Redemption battle-phase fragment.

Written from the clause catalogue (``specs/clauses/red_base.toml``,
``battle_resolution.toml`` and the heal-window clauses of ``heal.toml`` about declining),
never from the executable model: nothing here imports ``model.*``. The bridge
:mod:`oracle.crosscheck.redemption.battle` is the only module that joins the two.

Fragment: two players, Heroes, Evil Characters, Lost Souls and enhancements that only add
numbers; the turn player's attack (rescue attempt or battle challenge), the block or no
block, enhancements played following initiative, passing, Battle Resolution in its four
steps (heal windows offered and declined), and the phase changes to the discard phase and
the next turn.

Modules, in TLA+ order:

- :mod:`.variants`: the catalogue decisions the encoding reads;
- :mod:`.vocabulary`: the bounded configuration (cards), the typed variables of one time
  frame (``Vocabulary.at(t)``) and the type invariant ``domain``;
- :mod:`.rules`: derived terms (numbers, defeat, outcome, initiative, mission) and the
  Battle Resolution steps, each citing its clauses;
- :mod:`.actions`: one function per action kind: guards, updates and an explicit frame
  condition (UNCHANGED) for everything else;
- :mod:`.system`: ``TransitionSystem(init, trans)`` (the shared scaffold of
  :mod:`specs.smt.transition`: ``trans``, ``unroll``, BMC) over this vocabulary.
"""
