-- An 8-K's own Items (its account of the event, Items 1.01 to 8.01), not the exhibits filed under
-- Item 9.01: the rule search uses for its event candidates and their lift, stated once here
-- (finance.filing_sections.event_item is its Python twin; a store test holds the two together).
-- An SQL function of one expression: the planner inlines it, so plans are as before.
CREATE OR REPLACE FUNCTION finagent_event_item(kind text, section text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN coalesce(kind = '8-K' AND section LIKE 'item\_%' AND section <> 'item_9_01', false);
