-- Periods named for what they are: 'stub' is one part of a fiscal period split by a change of
-- reporting basis (predecessor / successor around a merger or an emergence from bankruptcy),
-- 'transition' the period a report covers after a change of fiscal year. Neither is a quarter or a year.
ALTER TABLE facts DROP CONSTRAINT IF EXISTS facts_duration_check;
ALTER TABLE facts ADD CONSTRAINT facts_duration_check CHECK (duration IN
    ('instant', 'quarter', 'six_months', 'nine_months', 'year', 'stub', 'transition', 'other'));
