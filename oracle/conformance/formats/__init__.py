"""The conformance formats an engine author implements, generated from the reference model's code.

- :mod:`.states`: typed JSON Schemas of each game's state and log entries (from the model's dataclasses
  and bounds, :mod:`.typed`), with the fields the rules leave unspecified marked (:mod:`.unspecified`);
- :mod:`.grammar`: the action grammar of each game, a matcher for it and the normal form of an action;
- :mod:`.refusals`: the table of refusal reasons with their clause IDs, read from the model's source;
- :mod:`.parts`: the suite schema typed per game and each part as ``cardrules conformance schema`` prints it.
"""

from __future__ import annotations
