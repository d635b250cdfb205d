"""Scopes: every small start position of a game, for ``diff``, ``verify`` and ``explore``.

In the spirit of Alloy's "check up to scope N", a *scope* states small domains
for what a position is made of (players, the printed cards each zone may hold
and how many, the numbers, brigades and abilities of those cards, who owns
what, each player's damage...) and the bounds of each exploration (one turn, a
state bound per position). :func:`enumerate_positions` lists every start
position the domains allow, up to the symmetry the game already exploits,
each a :class:`~cardrules.properties.scenarios.Scenario` checked like a
scenario file's, so every command that explores scenarios can explore a scope.

- :mod:`.format`: the ``cardrules-scope/1`` file format, :class:`Scope`, :func:`load_scope`,
  and the named scopes (:data:`SCOPE_NAMES`, the ``<game>-<name>.toml`` files of this folder);
- :mod:`.redemption`, :mod:`.fftcg`: where each game's positions stand, and why a real game reaches them;
- :mod:`.enumerate`: the positions, up to symmetry, in a fixed order.
"""

from cardrules.properties.scopes.enumerate import enumerate_positions, position
from cardrules.properties.scopes.errors import ScopeError
from cardrules.properties.scopes.format import GAMES, SCOPE_DIR, SCOPE_NAMES, Scope, load_scope, load_scopes, parse_scope

__all__ = ["GAMES", "SCOPE_DIR", "SCOPE_NAMES", "Scope", "ScopeError", "enumerate_positions", "load_scope", "load_scopes", "parse_scope",
           "position"]
