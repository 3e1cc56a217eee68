"""Reference rules engine (pure Python): the judge of every line the project claims.

``from solver.rules import new_initial_state`` gives the OpenSpiel-shaped State API; see
solver/rules/game.py for how a game is sequenced into actions.
"""

from .game import RuleError, State, new_initial_state
from .profile import PROFILES, RuleProfile, get_profile
from .scoring import Score

__all__ = [
           "PROFILES",
           "RuleError",
           "RuleProfile",
           "Score",
           "State",
           "get_profile",
           "new_initial_state",
]
