"""Executable model of Redemption CCG battles: battle stack, side battles,
initiative, interrupt and negate, and Battle Resolution.

Entry points: :func:`model.redemption.engine.legal_actions`,
:func:`model.redemption.engine.step`, :class:`model.redemption.state.State`,
:class:`model.redemption.config.RuleConfig`, :func:`model.redemption.actions.parse`.
"""
