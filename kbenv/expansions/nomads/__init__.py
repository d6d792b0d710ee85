"""Nomads: the position fields of its pieces (`setup`) and its side for the generic code (`side`)."""
