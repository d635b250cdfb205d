"""The embedded scenarios (one JSON file each, in this folder), their loader, and rule-set expressions.

:mod:`.loader` reads and checks the scenario files; :mod:`.rulesets` parses the
rule sets a user names on the command line (``default``, ``heal=previous``, ...).
"""

from cardrules.properties.scenarios.loader import (
    DEFAULT_MAX_STATES, GAMES, MAX_DEPTH_BOUND, MAX_STATES_BOUND, MAX_TURNS_BOUND, SCENARIO_DIR, RuleSetSpec, Scenario,
    check_rule_set, check_state, load_scenario, load_scenarios, parse_rule_set,
)

__all__ = [
    "DEFAULT_MAX_STATES", "GAMES", "MAX_DEPTH_BOUND", "MAX_STATES_BOUND", "MAX_TURNS_BOUND", "SCENARIO_DIR",
    "RuleSetSpec", "Scenario", "check_rule_set", "check_state", "load_scenario", "load_scenarios", "parse_rule_set",
]
