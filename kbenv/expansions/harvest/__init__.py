"""Harvest: set-up fields (`setup`, `cards`, `powers`) and what a seat sees of the expansion (`view`)."""
