"""Trained networks shipped with kbenv (`trained:2p`, `trained:4p`, `trained:nomads-2p`) and their model
cards; each card states the rulesets its model was trained for (`rulesets`, agents.rulesets)."""
