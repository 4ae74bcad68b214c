-- Migration 018 made the click statement a function so that each connection plans it once, but
-- PostgreSQL's plan cache (plan_cache_mode = auto) only keeps its one generic plan when that plan looks
-- no dearer than the custom ones it made for the first calls. A batch of one click, what a link sees
-- whenever its visitors do not arrive at once, looks cheap to plan for its own parameters, so every lone
-- click was planned anew: 1.2 ms of the database's CPU against 0.5 ms on the generic plan, which is the
-- plan PostgreSQL already chooses for batches of tens of clicks under load (bench/README.md).
ALTER FUNCTION count_clicks(text[], text[], text[], text[], text[], text[], text[], text[], bool[], bool[], int[], int8[], int[], text[], date)
    SET plan_cache_mode = force_generic_plan;
