"""The generated loops run at sample parameter values: ``executes_domain_once``."""

import islpy as isl

from polyopt.emit.ast_run import executes_domain_once

# A 4x4-tiled schedule (fuzz seed 103266) that respects every dependence, but whose loops, as isl
# generates them, skip S0[6..7, 2..4] when n = 8.
SKIPPING = (
    '{ domain: "[n] -> { S3[i] : 4 <= i < n; S0[i, j] : (j) mod 2 = 0 and 4 <= i < n and 2 <= j < n; S2[i'
    ' = 4, j] : n >= 5 and 5 <= j <= -2 + n; S1[i, j] : (j) mod 2 = 0 and 4 <= i < n and 2 <= j < n }", '
    'child: { schedule: "[n] -> [{ S0[i, j] -> [(floor((i)/4))]; S2[i, j] -> [(1)]; S1[i, j] -> '
    "[(floor((i)/4))]; S3[i] -> [(floor((i)/4))] }, { S0[i, j] -> [(1 + i - j + floor((-1 + n)/4))]; "
    "S2[i, j] -> [(floor((n + j)/4))]; S1[i, j] -> [(floor((1 + i + j)/4))]; S3[i] -> [(floor((n)/4))] "
    '}]", permutable: 1, child: { schedule: "[n] -> [{ S3[i] -> [(i)]; S0[i, j] -> [(i)]; S2[i, j] -> '
    "[(4)]; S1[i, j] -> [(i)] }, { S3[i] -> [(n)]; S0[i, j] -> [(3 + n + 4i - 4j)]; S2[i, j] -> [(n + "
    'j)]; S1[i, j] -> [(1 + i + j)] }]", permutable: 1, child: { set: [ { filter: "[n] -> { S3[i]; S0[i, '
    'j]; S1[i, j] }", child: { sequence: [ { filter: "[n] -> { S0[i, j]; S1[i, j] }", child: { schedule: '
    '"[n] -> [{ S0[i, j] -> [(0)]; S1[i, j] -> [(-i + j)] }]" } }, { filter: "[n] -> { S3[i] }" } ] } }, '
    '{ filter: "[n] -> { S2[i, j] }" } ] } } } }'
)

SAMPLES = [{"n": value} for value in (3, 8, 13)]


def test_loops_that_skip_instances_are_caught() -> None:
    schedule = isl.Schedule.read_from_str(isl.Context(), SKIPPING)
    assert not executes_domain_once(schedule, SAMPLES)


def test_untiled_loops_execute_the_domain_once() -> None:
    ctx = isl.Context()
    domain = isl.Schedule.read_from_str(ctx, SKIPPING).get_domain()
    schedule = isl.Schedule.from_domain(domain).insert_partial_schedule(
        isl.MultiUnionPwAff.read_from_str(
            ctx, "[n] -> [{ S0[i, j] -> [(i)]; S1[i, j] -> [(i)]; S2[i, j] -> [(i)]; S3[i] -> [(i)] }]"
        )
    )
    assert executes_domain_once(schedule, SAMPLES)
