"""The domain grammar of a question's words: what it asks (a value, a change, a ranking, a verdict),
its change words, metrics, parts, long histories and judgements. Read once by ``agent.understand``;
builds on the shared vocabulary of ``finance`` only."""
