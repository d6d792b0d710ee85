"""Trained networks shipped with kbenv (`trained:2p`, `trained:4p`) and their model cards."""
