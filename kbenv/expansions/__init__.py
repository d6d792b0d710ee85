"""The Python side of each expansion (set-up fields, positions, views), one package per expansion; the
kernels are in kbenv/engine/<expansion>/."""
