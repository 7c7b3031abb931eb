"""Seats for AI players: language-model seats (``lupus.ai.llm``)."""
