"""The rules engine of Loo: pure Python, standard library only (no Django).

Everything the service, the tests, the simulator and the benchmark need is importable from
here; ``docs/engine-api.md`` is the contract and ``docs/engine.md`` the user guide.
"""
from .cards import format_card, parse_card
from .deal import Deal
from .errors import RecordError, RuleError
from .notation import actions_from_text, actions_to_text
from .options import PRESETS, RuleSet
from .record import replay
from .session import replay_session
from .settlement import end_pool_split
from .verdict import DEALT_AGAIN, VOID_ENDINGS, is_final_deal, marked_final, played_to_a_result
from .version import ENGINE_VERSION, RECORD_FORMAT

__all__ = [
    "DEALT_AGAIN",
    "ENGINE_VERSION",
    "PRESETS",
    "RECORD_FORMAT",
    "VOID_ENDINGS",
    "Deal",
    "RecordError",
    "RuleError",
    "RuleSet",
    "actions_from_text",
    "actions_to_text",
    "end_pool_split",
    "format_card",
    "is_final_deal",
    "marked_final",
    "parse_card",
    "played_to_a_result",
    "replay",
    "replay_session",
]
