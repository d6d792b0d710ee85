"""Training: self-play MaskablePPO, its config, imitation of a built-in teacher, the guide, the networks.

stable-baselines3 and torch are imported here only (and by agents.ppo when a trained model plays)."""
