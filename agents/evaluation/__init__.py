"""Evaluation: playing games between agents, tournaments with seat rotation, and ratings."""
