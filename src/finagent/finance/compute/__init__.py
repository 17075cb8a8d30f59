"""Computing from the figures read: the safe calculator, comparisons, outcomes (rankings, crossings,
trends), formulas and their values, period changes, revisions and the ranking of a whole's parts."""
