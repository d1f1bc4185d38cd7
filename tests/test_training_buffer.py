"""Experience samples and the FIFO buffer of seed 003 (ppalib.training.buffer)."""
from dataclasses import dataclass

import pytest

from ppalib.training.buffer import ExperienceBuffer, Sample


def _sample(tag: int) -> Sample:
    return Sample.from_rows([[0], [1]], [tag, tag + 1], [0.25, 0.75], mover=tag % 2, state=tag)


def _tags(samples):
    return [s.state for s in samples]


def test_fifo_order_and_capacity():
    buf = ExperienceBuffer(capacity=5, seed=0)
    assert len(buf) == 0
    for t in range(3):
        buf.add(_sample(t))
    assert len(buf) == 3 and _tags(buf) == [0, 1, 2]
    buf.extend(_sample(t) for t in range(3, 9))
    assert len(buf) == 5 and _tags(buf) == [4, 5, 6, 7, 8]  # the oldest dropped out first
    assert buf[0].state == 4 and buf[-1].state == 8


def test_default_capacity_is_the_papers_200():
    buf = ExperienceBuffer(seed=1)
    buf.extend(_sample(t) for t in range(250))
    assert buf.capacity == 200 and len(buf) == 200 and _tags(buf)[0] == 50


def test_sampling_without_replacement_has_no_duplicates_and_uses_all_when_short():
    buf = ExperienceBuffer(capacity=200, seed=2)
    buf.extend(_sample(t) for t in range(50))
    for _ in range(20):
        batch = _tags(buf.sample(30))
        assert len(batch) == 30 and len(set(batch)) == 30
    short = ExperienceBuffer(capacity=200, seed=2)
    short.extend(_sample(t) for t in range(7))
    assert sorted(_tags(short.sample(20))) == list(range(7))  # fewer than the batch: all of them
    assert ExperienceBuffer(seed=0).sample(20) == []  # empty buffer: empty batch


def test_sampling_with_replacement_draws_the_full_batch():
    buf = ExperienceBuffer(capacity=200, seed=4)
    buf.extend(_sample(t) for t in range(7))
    batch = _tags(buf.sample(30, replace=True))
    assert len(batch) == 30 and set(batch) <= set(range(7)) and len(set(batch)) < 30


def test_sampling_is_deterministic_given_the_seed():
    def batches(seed):
        buf = ExperienceBuffer(capacity=40, seed=seed)
        out = []
        for t in range(100):
            buf.add(_sample(t))
            out.append(_tags(buf.sample(20)))
            out.append(_tags(buf.sample(3, replace=True)))
        return out

    assert batches((12, 0)) == batches((12, 0))
    assert batches((12, 0)) != batches((12, 1))


def test_transform_keeps_order():
    buf = ExperienceBuffer(capacity=3, seed=0)
    buf.extend(_sample(t) for t in range(4))
    buf.transform(lambda s: Sample(s.indptr, s.indices, s.moves, s.pi, s.mover, state=s.state * 10, n_features=2))
    assert _tags(buf) == [10, 20, 30] and all(s.n_features == 2 for s in buf)


@dataclass(frozen=True)
class _Inst:
    feature: int
    anchor: int = 0


def test_sample_from_instances_and_validation():
    insts = [[_Inst(3, 0), _Inst(1, 2), _Inst(3, 5)], [], [_Inst(0)]]
    s = Sample.from_instances(insts, [7, 8, 9], [0.5, 0.0, 0.5], mover=1, n_features=4)
    assert s.indptr.tolist() == [0, 2, 2, 3] and s.indices.tolist() == [1, 3, 0]
    assert s.instances is insts and s.num_moves == 3 and s.mover == 1
    assert not s.pi.flags.writeable and not s.indices.flags.writeable
    with pytest.raises(ValueError):
        Sample.from_rows([[0], [1]], [1, 2, 3], [0.5, 0.5], 0)  # moves do not match rows
    with pytest.raises(ValueError):
        Sample.from_rows([[0], [1]], [1, 2], [-0.5, 1.5], 0)  # negative pi
    with pytest.raises(ValueError):
        Sample.from_rows([[0], [1]], [1, 2], [0.5, 0.5], 0, instances=[[]])  # one instance list per move
    with pytest.raises(ValueError):
        Sample.from_rows([[0], [4]], [1, 2], [0.5, 0.5], 0, n_features=4)
