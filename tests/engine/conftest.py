"""Engine test settings: a hypothesis profile that suits a shared 2-core CI machine."""

import os

from hypothesis import HealthCheck, settings

# deadline=None: replay time varies with machine load, and a timing failure would say
# nothing about the engine. Example counts stay modest so the suite stays quick.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
