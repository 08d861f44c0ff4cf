"""Step/cycle counts that the golden models return beside their results."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stats:
    """What a model counted while it ran.

    ``cycles`` is the clock-cycle (or step) count the paper defines for that algorithm; its exact
    meaning per model is written in ``docs/algorithms.md``. ``counts`` holds further named
    counters (iterations, word operations, subtractions...). ``paper_cycles`` is the paper's own
    formula or table value for the same size, where the paper gives one.
    """

    cycles: int
    counts: dict[str, int] = field(default_factory=dict)
    paper_cycles: float | None = None
