"""Agents that play kbenv: every agent follows `agents.base.Agent`."""

from .base import Agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent"]
