"""The rules of Kingdom Builder as numba kernels over one game's flat int64 state vector."""
