"""Uniformly random legal decisions (the environment's own random policy)."""

from kbenv.policies import RandomPolicy as RandomAgent

__all__ = ["RandomAgent"]
