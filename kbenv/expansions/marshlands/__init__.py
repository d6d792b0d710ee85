"""Marshlands: the set-up fields of a hand-built position (the Marshlands counters)."""
