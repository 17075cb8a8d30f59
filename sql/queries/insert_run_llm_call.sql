INSERT INTO run_llm_calls (run_id, seq, role, provider, model, template, prompt_sha256, prompt, reply,
                           input_tokens, output_tokens, latency_s, ok, repaired, error)
VALUES (%(run_id)s, %(seq)s, %(role)s, %(provider)s, %(model)s, %(template)s, %(prompt_sha256)s, %(prompt)s,
        %(reply)s, %(input_tokens)s, %(output_tokens)s, %(latency_s)s, %(ok)s, %(repaired)s, %(error)s)
