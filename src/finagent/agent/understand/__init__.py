"""Understanding the question once: companies, refusals, vocabulary and the typed plan."""
