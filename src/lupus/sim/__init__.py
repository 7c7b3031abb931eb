"""Monte Carlo self-play: many seeded games, on all cores or on a Ray cluster."""

from lupus.sim.runner import SimConfig, SimResult, simulate

__all__ = ["SimConfig", "SimResult", "simulate"]
