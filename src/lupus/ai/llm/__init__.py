"""Language-model seats: a seat played by a model behind an OpenAI-compatible chat API.

The modules split what needs the ``openai`` client from what does not, so that a plain
``import lupus`` or a simulation of other bots never imports it: ``settings`` (what a
run asks of the model), ``prompt`` (a decision told from the seat's view alone, and its
answer read back), ``cache`` (every reply recorded, so a run replays without a model)
need nothing; ``client`` (the calls) imports ``openai`` when the first call is made;
``bot`` (the ``llm`` bot kind) and ``run`` (``lupus simulate`` with LLM seats) use them.
"""
