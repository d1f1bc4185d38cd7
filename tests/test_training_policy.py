"""The apprentice of seed 003 (ppalib.training.policy): softmax, loss (5), its gradient, SGD (6)."""
import numpy as np
import pytest

from ppalib.training import policy
from ppalib.training.buffer import ExperienceBuffer, Sample


def _random_sample(rng, n_features, max_moves=6, density=0.3):
    moves = int(rng.integers(1, max_moves + 1))
    rows = [np.flatnonzero(rng.random(n_features) < density) for _ in range(moves)]
    pi = rng.dirichlet(np.ones(moves))
    if moves > 2:
        pi[rng.integers(moves)] = 0.0  # a move the expert never visited
        pi /= pi.sum()
    return Sample.from_rows(rows, np.arange(moves), pi, mover=int(rng.integers(2)))


def _numerical_gradient(f, theta, h=1e-6):
    g = np.zeros_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        g[i] = (f(theta + e) - f(theta - e)) / (2 * h)
    return g


def test_csr_rows_are_sets_and_logits_sum_active_weights():
    indptr, indices = policy.csr([[3, 1, 3], [], [0]])
    assert indptr.tolist() == [0, 2, 2, 3] and indices.tolist() == [1, 3, 0]
    theta = np.array([0.5, -1.0, 7.0, 2.0])
    f = policy.logits(theta, policy.Rows(indptr, indices))
    assert f.tolist() == [1.0, 0.0, 0.5]  # a feature active twice still counts once; no feature -> 0


def test_bad_feature_matrices_are_refused():
    with pytest.raises(ValueError):
        policy.Rows(np.array([0, 2]), np.array([1, 1]))  # repeat in a row
    with pytest.raises(ValueError):
        policy.Rows(np.array([0, 3]), np.array([0, 1]))  # indptr does not end at len(indices)
    with pytest.raises(ValueError):
        policy.logits(np.zeros(2), policy.Rows.from_rows([[0, 5]]))  # index outside theta
    with pytest.raises(ValueError):
        Sample.from_rows([[0], [1]], [0, 1], [0.7, 0.7], 0)  # pi does not sum to 1


@pytest.mark.parametrize("l2", [0.0, 1e-6, 0.3])
def test_gradient_equals_numerical_gradient(l2):
    rng = np.random.default_rng(7)
    for _ in range(5):
        F = int(rng.integers(3, 15))
        batch = [_random_sample(rng, F) for _ in range(int(rng.integers(1, 8)))]
        theta = rng.normal(0, 1.0, F)
        numeric = _numerical_gradient(lambda t: policy.loss(t, batch, l2), theta)
        np.testing.assert_allclose(policy.gradient(theta, batch, l2), numeric, rtol=1e-6, atol=1e-8)


def test_gradient_is_paper_formula_and_sgd_step_is_equation_6():
    rng = np.random.default_rng(3)
    F, l2, alpha = 8, 1e-2, 0.05
    batch = [_random_sample(rng, F) for _ in range(4)]
    theta = rng.normal(size=F)
    total = np.zeros(F)
    for s in batch:  # sum_a (p - pi)(s, a) phi(s, a) with a dense phi
        phi = np.zeros((s.num_moves, F))
        for k in range(s.num_moves):
            phi[k, s.indices[s.indptr[k]:s.indptr[k + 1]]] = 1.0
        p = np.exp(phi @ theta) / np.exp(phi @ theta).sum()
        total += (p - s.pi) @ phi
    expected = theta - alpha * total / len(batch) - alpha * l2 * theta
    np.testing.assert_allclose(policy.sgd_step(theta, batch, alpha, l2), expected, rtol=1e-12, atol=1e-14)


def test_softmax_is_stable_for_large_logits():
    s = Sample.from_rows([[0], [1], [0, 1], []], np.arange(4), [0.0, 0.5, 0.0, 0.5], 0)
    theta = np.array([4000.0, -3000.0])
    p = policy.probabilities(theta, s)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0) and p[0] == 1.0
    logp = policy.log_probabilities(theta, s)
    np.testing.assert_allclose(logp, [0.0, -7000.0, -3000.0, -4000.0])
    # Shift invariance: adding a constant to every logit changes nothing.
    s2 = Sample.from_rows([[0, 2], [1, 2], [0, 1, 2], [2]], np.arange(4), s.pi, 0)
    np.testing.assert_allclose(policy.probabilities(np.array([4000.0, -3000.0, 1e5]), s2), p)
    loss = policy.loss(theta, [s], l2=0.0)
    assert np.isfinite(loss) and loss == pytest.approx(0.5 * 7000.0 + 0.5 * 4000.0)
    assert np.all(np.isfinite(policy.gradient(theta, [s])))


def test_grow_appends_zero_weights_and_keeps_the_policy():
    rng = np.random.default_rng(0)
    s = _random_sample(rng, 5)
    theta = rng.normal(size=5)
    bigger = policy.grow(theta, 3)
    assert bigger.tolist() == theta.tolist() + [0.0, 0.0, 0.0]
    np.testing.assert_array_equal(policy.probabilities(bigger, s), policy.probabilities(theta, s))


def test_greedy_is_the_argmax_of_p():
    s = Sample.from_rows([[0], [1], [2]], [10, 11, 12], [1 / 3, 1 / 3, 1 / 3], 0)
    assert policy.greedy(np.array([0.1, 0.9, -2.0]), s) == 1
    assert policy.greedy(np.zeros(3), s) == 0  # ties: the first move


def test_sgd_on_buffer_batches_learns_a_realisable_target():
    """Five fixed states whose targets are softmax(theta* . phi): SGD with the paper's settings drives KL to ~0."""
    rng = np.random.default_rng(1)
    F = 12
    theta_star = rng.normal(0, 1.5, F)
    states = []
    for i in range(5):
        moves = int(rng.integers(3, 7))
        rows = [rng.choice(F, size=int(rng.integers(1, 4)), replace=False) for _ in range(moves)]
        pi = policy.probabilities(theta_star, policy.Rows.from_rows(rows))
        states.append(Sample.from_rows(rows, np.arange(moves), pi, i % 2))

    def kl(theta):
        return np.mean([np.sum(s.pi * (np.log(s.pi) - policy.log_probabilities(theta, s))) for s in states])

    buffer = ExperienceBuffer(200, seed=3)
    theta = np.zeros(F)
    start = kl(theta)
    for _ in range(2000):  # one sample and one SGD step (batch 20, alpha 0.05, lambda 1e-6) per "move"
        buffer.add(states[int(rng.integers(5))])
        theta = policy.sgd_step(theta, buffer.sample(20), step=0.05, l2=1e-6)
    assert start > 0.3
    assert kl(theta) < 2e-3
    for s in states:
        np.testing.assert_allclose(policy.probabilities(theta, s), s.pi, atol=0.03)
