"""Lupusburg: every player hides two characters under two houses, one with his chest.

The same engine core as the village games (agenda, prompts, events with audiences,
views); what differs is what a seat holds: two characters instead of one card.
"""
