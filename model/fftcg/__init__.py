"""Executable reference model of the Final Fantasy TCG attack phase with parties.

Modules:

- :mod:`model.fftcg.state`: immutable game state and its JSON form.
- :mod:`model.fftcg.jsonform`: reading the JSON form (types and ranges).
- :mod:`model.fftcg.validate`: the consistency rules and ``load_state``.
- :mod:`model.fftcg.actions`: action values and their canonical text form.
- :mod:`model.fftcg.config`: :class:`RuleConfig`, the rule variant selector.
- :mod:`model.fftcg.party`: party composition and disbanding (FF-PARTY-*).
- :mod:`model.fftcg.combat`: who may attack and block, declarations.
- :mod:`model.fftcg.damage`: damage resolution, the blocker's split, breaking, losing.
- :mod:`model.fftcg.turn`: moving through the steps, leaving the field, ending the turn.
- :mod:`model.fftcg.engine`: ``legal_actions`` and ``step``.

The clause IDs each function implements are declared with
``specs.catalogue.registry.implements``.
"""

from cardrules.model.fftcg.actions import Action, parse_action
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State

__all__ = ["Action", "RuleConfig", "State", "legal_actions", "parse_action", "step"]
