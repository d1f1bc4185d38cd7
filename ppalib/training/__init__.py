"""Expert iteration for seed 003 (Soemers, Piette & Browne 2019): the pieces the self-play driver puts together.

* :mod:`.policy`: the apprentice, p = softmax(theta . phi(s, a)) over the legal moves; loss (5), SGD step (6);
* :mod:`.buffer`: :class:`Sample` (one per move) and the FIFO :class:`ExperienceBuffer` (capacity 200);
* :mod:`.discovery`: the four feature-discovery strategies of section V-A (formula (7) for the correlation-based one).

numpy only: one SGD step per move on 20 samples and one discovery per game are cheap next to the search.
"""
from . import buffer, discovery, policy
from .buffer import ExperienceBuffer, Sample
from .discovery import STRATEGIES, correlation_scores, discover
from .policy import grow, greedy, gradient, logits, loss, probabilities, sgd_step

__all__ = [
    "policy",
    "buffer",
    "discovery",
    "Sample",
    "ExperienceBuffer",
    "STRATEGIES",
    "discover",
    "correlation_scores",
    "logits",
    "probabilities",
    "loss",
    "gradient",
    "sgd_step",
    "grow",
    "greedy",
]
