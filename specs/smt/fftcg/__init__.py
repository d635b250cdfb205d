"""An independent SMT (z3) encoding of the FFTCG attack phase with parties.

Written from the clause catalogue (``specs/clauses/party.toml`` and
``specs/clauses/ff_base.toml``), never from the executable model: nothing
here imports ``model.*``. The bridge :mod:`oracle.crosscheck.fftcg` is the only
module that joins the two.

Modules, in TLA+ order:

- :mod:`.variants`: the rule variants (the decisions of ``party.toml``).
- :mod:`.vocabulary`: the bounded configuration (fixed Forwards per player),
  the rigid card attributes and the typed variables of one time frame
  (``Vocabulary.at(t)``), with the type invariant ``domain``.
- :mod:`.rules`: derived predicates (who may attack or block, valid parties,
  breaking, the blocker's split), each citing its clauses.
- :mod:`.actions`: one function per action kind: guards, updates and an
  explicit frame condition (UNCHANGED) for everything else.
- :mod:`.system`: ``TransitionSystem(init, trans)`` (the shared scaffold of
  :mod:`specs.smt.transition`: ``trans``, ``unroll``) over this vocabulary.
- :mod:`.properties`: the z3 forms of registered properties, with their clauses.
- :mod:`.bmc`: the property at time ``t`` for the shared bounded model checking
  and k-induction of :mod:`specs.smt.transition`.
"""
