"""Executable model of Redemption CCG battles: battle stack, side battles,
initiative, interrupt and negate, Battle Resolution, heal abilities in both
wordings (:mod:`model.redemption.heal`, selected by ``RuleConfig.heal_version``)
and redirect abilities (:mod:`model.redemption.redirect`).

Entry points: :func:`model.redemption.engine.legal_actions`,
:func:`model.redemption.engine.step`, :class:`model.redemption.state.State`,
:func:`model.redemption.validate.load_state`,
:class:`model.redemption.config.RuleConfig`, :func:`model.redemption.actions.parse`.

Modules, in layers that only import downwards (checked by
``tests/project/test_layers.py``):

1. state and pure edits and reads: :mod:`pieces` (cards, zones, battles), :mod:`records`
   (play records, prompts, the turn's memory), :mod:`state`, :mod:`jsonform` (the JSON
   reader), :mod:`validate` (consistency rules, ``load_state``), :mod:`config`,
   :mod:`actions`, :mod:`wording`, :mod:`ops`, :mod:`numbers`, :mod:`scenario`,
   :mod:`standing` (strength, defeat, outcome), :mod:`healable` (heal targets);
2. who may act next: :mod:`initiative`; what an area hands back to the
   dispatcher: :mod:`handoff` (``Then`` markers, callback types);
3. one module per rule area, never importing another area: :mod:`battle`,
   :mod:`side_battle`, :mod:`heal`, :mod:`redirect`, :mod:`resolution`,
   :mod:`turn`, :mod:`abilities` (card play, interrupt, negate);
4. the dispatcher :mod:`engine`: routes actions and abilities to the areas.

The clause IDs each function implements are declared with
``specs.catalogue.registry.implements``.
"""
