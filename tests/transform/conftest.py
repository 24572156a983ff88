"""Fixtures of the transformation tests.

``kernel_of``: a C body (see ``tests/conftest.py``) -> ``Kernel``, modelled on a
fresh isl context configured with the default scheduler options.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from polyopt.frontend.scop import Scop
from tests.transform.support import Kernel, KernelOf, build_kernel


@pytest.fixture
def kernel_of(scop_of: Callable[[str], Scop]) -> KernelOf:
    def build(body: str) -> Kernel:
        return build_kernel(scop_of(body))

    return build
