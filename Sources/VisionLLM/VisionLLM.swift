// The LLM clients land with the LLM issue.
