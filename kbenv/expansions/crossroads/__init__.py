"""Crossroads: the position fields of its tasks and pieces (`setup`) and its side for the generic code (`side`)."""
