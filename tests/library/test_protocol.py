"""The idiom protocol (``polyopt.library.protocol``): every kind that PolyBench's kernels contain answers for
itself what the library step, the choice and the microkernel ask of it."""

from __future__ import annotations

import pytest

from polyopt.library import Idiom, find_idioms
from polyopt.library.choice import KINDS, SHARED, TIMED, default_choice
from polyopt.library.microkernel import microkernel_block
from polyopt.library.microkernel_plan import plan_microkernel
from polyopt.machine import Machine
from tests.library.idiom_cases import ModelOf, kernel_region

MACHINE = Machine(32 << 10, 1 << 20, 32 << 20, 64, cores=2, simd_bytes=64, origin="t", vector_registers=32)
KERNELS = ("gemm", "syrk", "syr2k", "trmm", "symm", "doitgen", "gemver")


@pytest.fixture
def idioms(model_of: ModelOf) -> list[Idiom]:
    """The idioms of ``KERNELS``, in order."""
    return [idiom for name in KERNELS for idiom in find_idioms(model_of(*kernel_region(name)))]


def test_the_kernels_hold_every_kind_of_the_choice(idioms: list[Idiom]) -> None:
    assert sorted(type(idiom).__name__ for idiom in idioms) == sorted(
        ["Gemm", "Syrk", "Syr2k", "Trmm", "Symm", "BatchedGemm", "Ger", "Gemv", "Gemv"]
    )
    assert {type(idiom) for idiom in idioms} == set(KINDS)


def test_every_kind_is_timed_by_a_field_of_the_probe() -> None:
    assert {kind.PROBE for kind in KINDS} <= set(TIMED)


def test_threshold_key_names_a_call_of_the_choice(idioms: list[Idiom]) -> None:
    calls = {call.kind for call in default_choice(MACHINE).calls}
    for idiom in idioms:
        name = type(idiom).__name__
        assert idiom.threshold_key(False) == name
        assert idiom.threshold_key(True) == (SHARED if idiom.LEVEL == 2 else name)
        assert {idiom.threshold_key(False), idiom.threshold_key(True)} <= calls


def test_only_level_2_idioms_share_their_matrix(idioms: list[Idiom]) -> None:
    shared = {type(idiom).__name__: idiom.shared_matrix() for idiom in idioms if idiom.shared_matrix() is not None}

    assert shared == {"Ger": "A", "Gemv": "A"}


def test_the_microkernel_operands_are_given_by_the_kinds_it_computes(idioms: list[Idiom]) -> None:
    for idiom in idioms:
        sizes = [f"n{index}" for index in range(len(idiom.sizes))]
        operands = idiom.microkernel(sizes)
        assert (operands is None) == (idiom.MICROKERNEL is None), type(idiom).__name__
        if operands is not None:
            assert operands.target == operands.arrays[0]
            assert operands.rows == sizes[0]


def test_microkernel_block_rejects_a_kind_it_does_not_compute(idioms: list[Idiom]) -> None:
    ger = next(idiom for idiom in idioms if type(idiom).__name__ == "Ger")

    with pytest.raises(ValueError, match="does not compute a Ger"):
        microkernel_block(ger, ["m", "n"], plan_microkernel(MACHINE), (), cores=1, parallel_work=None)
