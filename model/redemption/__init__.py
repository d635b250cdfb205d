"""Executable model of Redemption CCG battles: battle stack, side battles,
initiative, interrupt and negate, Battle Resolution, heal abilities in both
wordings (:mod:`model.redemption.heal`, selected by ``RuleConfig.heal_version``)
and redirect abilities (:mod:`model.redemption.redirect`).

Entry points: :func:`model.redemption.engine.legal_actions`,
:func:`model.redemption.engine.step`, :class:`model.redemption.state.State`,
:class:`model.redemption.config.RuleConfig`, :func:`model.redemption.actions.parse`.
"""
