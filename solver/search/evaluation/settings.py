"""What one tuning run does (``ora-solve tune``'s settings and their defaults), apart from
the tuner (tune.py) so that the CLI reads the defaults without loading NumPy or Numba."""

from __future__ import annotations

from dataclasses import dataclass, field

METHODS = ("cem", "es")  # cem: the cross-entropy method; es: a (1+lambda) evolution strategy


@dataclass
class Settings:
    """What one tuning run does."""

    variant: str
    generations: int = 8
    population: int = 10
    seeds: list[int] = field(default_factory=lambda: [11, 12, 13])
    holdout: list[int] = field(default_factory=lambda: [21, 22, 23, 24, 25, 26])
    beam: int = 20
    seed: int = 0
    compare: int | None = None  # hand-set weightings compared on the held-out seeds (all)
    start_best: bool = False  # start from the hand-set weighting best on the training seeds
    method: str = "cem"  # "cem": cross-entropy method; "es": (1+lambda) evolution strategy
    sigma_scale: float = 1.0  # multiplies every initial sigma

    def check(self) -> None:
        """ValueError naming a setting that cannot work."""
        if self.population < 2:
            raise ValueError("--population must be at least 2")
        if self.method not in METHODS:
            raise ValueError(f"--method must be one of {', '.join(METHODS)}, not "
                             f"{self.method!r}")
        if not 0 < self.sigma_scale <= 4:
            raise ValueError(f"--sigma-scale must be in (0, 4], not {self.sigma_scale:g}")
        if self.generations < 1 or self.beam < 1:
            raise ValueError("--generations and --beam must be at least 1")
        if not self.seeds:
            raise ValueError("give at least one training seed (--seeds)")
        both = sorted(set(self.seeds) & set(self.holdout))
        if both:
            raise ValueError(f"seeds {both} are both training and held-out seeds: held-out "
                             "seeds must never be used for selection")
