INSERT INTO runs (id, thread_id, question, options, models, status, analysis, targets, answer, confidence,
                  iterations, validation, tool_results, evaluations, facts, calculations, warnings, errors,
                  node_timings, input_tokens, output_tokens, started_at, finagent_version)
VALUES (%(id)s, %(thread_id)s, %(question)s, %(options)s, %(models)s, %(status)s, %(analysis)s, %(targets)s,
        %(answer)s, %(confidence)s, %(iterations)s, %(validation)s, %(tool_results)s, %(evaluations)s,
        %(facts)s, %(calculations)s, %(warnings)s, %(errors)s, %(node_timings)s, %(input_tokens)s,
        %(output_tokens)s, %(started_at)s, %(finagent_version)s)
