"""Shared test configuration.

hypothesis profiles: ``ci`` (default, quick enough for two cores, derandomized so that a
CI verdict never depends on the draw),
``deep`` for long runs: ``HYPOTHESIS_PROFILE=deep python -m pytest``, and
``fuzz`` for the bad-input tests, 1,000 examples per input kind:
``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/robustness``.
The ``clause`` marker and its checks come from ``cardrules.oracle.pytest_plugin``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("fuzz", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A complete `cardrules verify` run inside a test must not overwrite the checkout's
# recorded result (oracle/results.py), which the spec site shows.
if "CARDRULES_RESULTS_DIR" not in os.environ:
    import tempfile

    os.environ["CARDRULES_RESULTS_DIR"] = tempfile.mkdtemp(prefix="cardrules-results-")
